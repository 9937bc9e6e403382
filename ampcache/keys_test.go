// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ampcache_test

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"sync"
)

// Test keys, made with "openssl genrsa -out key.pem BITS" (PKCS #8). As in
// crypto/tls's tests, "PRIVATE KEY" is written "TESTING KEY", so that
// scanners do not take them for leaked keys; testingKey puts it back.
const (
	// publisherKeyPEM is the publisher's key: 2048 bits.
	publisherKeyPEM = `-----BEGIN TESTING KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC4Tzpo2PFcUj+q
05P/7eJP6slT2xllhv5LfweXZZo/Lo4lWImSWcebqNoXGfWCQZYWsHsNuzJmj+u0
4HCcL/+BcDA1NFwtGZJf+Y5qJRbuN1/CTFN/chLR4wtc/lbjbiHedG2XTHaTImO+
jzXAwPhr5HpRp4cY7JkpKtx31xinM0Kc44lF7AYqUJTei34aQ6P4f41PfwkIYFLE
7h+n+zGM1Oxc0YqGPrticE2qk3zOSWNwAgD/u6wFxY388q5WgYXgvAwRWkjD1QmN
1yy7E6+rJGQxevR6qJUmCGXDdm0nWCTlUG2IkthGi0odZIG2hITa1TvBuf+pVVT8
Qb/i7nV/AgMBAAECggEAAmV3tz/e2RolEF9vRK9L0OMwgLuDPh7K6DtiFpW9GcYz
fFVrqhbEJO6ryz7mQmFmhkWY8mN1MwBhcN9PYR1LDELjqMVuz2CBcGfQi+ooid3E
parG/Fi4DIX2f1wiA0bKzPDxl26CLV6PzAn7ozwL3tQNKeOf1FluXyrBMnoXxkPu
kPAQGzxjEma+x8khpe7R9PUZpkk+vNiQsQN7nxjesHXAX//OmraKLaZCdH6fUb+s
kZMsUnz4Q7PCbH4FRPGi2OQPpEENrWWuVu/EgKt/9wVBn9cKzOskwc/Tr6ybhOnD
3vAFDRTm0RLz/JA/9i1RQJp/y7OT1Vu9h7Hql5U1CQKBgQD0yB4GGhBXTRJuWQkk
BST1H2MiVx08wMQC7hrVgv8RhAfMcfhpWbpDV4LGOLl72OqyWt2kX3H9vYt9T3lM
IZm50WTBK7CGi/u4tG9ua1AivUbj84z16FYj0eMD0szLo5rpTctZyvBNMyrT4LZH
rAvEHBCQNuD9FH7NoiuP4KdUdwKBgQDAwaAI9H127Ufj2IuvaqIJMgW7pBTwkys/
SqaDrwHHAbqTz0YQ4mMX4H7B8/n3O6xoqcjKU4d+jTMG9UO81As4kZOj2eM4544q
ieDOfmP4zxgpiaYtsQNgL/LR8Q4ZHHwSysbYdvT7oCtbX4zPlsfg4qeWmhZ365TM
FKRyb2VROQKBgCcBOF+Kia4Plu9EesNlmnUA0mAnd341zUYWQOpi3FgjLMb0JjxL
UvXmHO2PHmdQsl1HQ2gs2VIwgOiv4Ek0VXWZmy940cEuzyaogdUbfoJ6nLA4H+8T
XZ6JlF4Imh+c61Nf1RZy0wXKMHngpcsX7CwMuMryI7nQKUCFJeHgT2mTAoGAeN4x
QsxEjDl31diopqN/3bI/RA08kCpIeRSPW4122Notq5fSgK3ko0lDUs1xFeWWU777
SFueX+2cbKWJBzQToTIv2RO81qbkT6pLjFBW0eLSbOGCka4oxrzqT1kPlRF2f7Yl
gAD/13T1GwPMYTNUPKEDo30Vz7aqhFoBUDyn1IkCgYEAlgBxgjmR018AWrtN+jXb
6X4VDVDKvimA27ErlTXF7rhl2U8k6JkfTSbDSj4KQ5fNPaIvcUvdt2P4KQEK0UUp
qDIx2ca4G7oWt0Lr5OqsBcZet/0TD1qC5gYyqcHX0trtgtyEPWNebD3S+gd4SD2w
qM4WVIlc0drdL662CRT3teM=
-----END TESTING KEY-----`
	// otherKeyPEM is another publisher's key: 2048 bits.
	otherKeyPEM = `-----BEGIN TESTING KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCTDlF3g/IgYYn+
IAILTH0CgJwmaNm4lWUvO8gE4+yxmVxxPMCo8J1JefKq+wBeOWTWW11aSMyywIGN
dD6faZNPsIncp7qn0eKRvfnQ/rw523ScN3F6Guua1Hzs1iqrZVpOrf/yih13bb/O
bpqb4X5eiNzIuMNRGCyLYygRcunuzcq5OUFo1qvrhCx373HT+bS4GHq7SK/Bzmel
xEsEETP/xdOjFNHu84wSiJMb8jwx3MONpmYz40GqV2ed9iZZp87DWU0fGpFHFs8N
gq2QKHMmLRY4W/TFoWeY2dQo7puvGv8HJm9yZXPLeodqc1c3LnSgXlwqZDA4SH2F
X5UyTR79AgMBAAECggEAEO401Gr5QR+htMOIILdjbBqU/7oSGPWAQwYhsuhv24mh
0jqxnrGnFirHVMaVpgN7F8/IiWi4wnq136yKui08Q9A6KxCXhZM9P9TMsnJlhs68
l/CtLKb1SavdnyHQI1AFq+nN/iVHG7UjwFdNDxXQx/7/Vk+pUwiStlCJ8CpYAwF7
OxJs/jDXKu+HQTcVSa7z4mcAku1fjikyky205R9szZQtYgQdk6B6JlRMAzNKdu1F
k61TD3TGvQM0ViDEJ1ru34zeab2vdQ3KHaFugnaB/QyoPdPocOIfvQgE658E1NtV
XgO5XSmy1rMLGQhH4uT+ifD3R6OP+16vfJqjBI6lWQKBgQDIDrgQyWNGu/nm7s9D
7OypsQqrTI5ZaMw9kYgBLemQo4Zkb5E/4FpKEcp2P9uk5e6HykcVuHhzZP+8fVzS
FObyzdImm+dN2QYstank/Wv57mTztx/tWvOJOHc7DVpCCq4fwPc3vtw/VlPY5Q/L
01TMsVrGJXi8F8jZLGCWYEGCOQKBgQC8LXA7XaSyx5N+ZnbxdUe0EJ3/0TDIYXK2
8B4ONnek9HGduk/8xXSHeEiShji3tUEHFQzkyHmEBElHhMC19BXIhuu92PFrDOs/
Xhi3nMl4RkGBLLi//tw6XmQ+yPLInC76jtS+FoVHEijrXpZLxsGYKLWgoqRv2INp
tYprxGiy5QKBgEZrj/UwvoZeksfsVf8F/gR5clT7/LuSPRqLCMHJhIbKWPsvnoRK
l92sx4S6U7mGymD4He+SYKvV6INT6YF1pBnhw1Cd3lyzwQ2p4KTfY8u1U8nKMy3c
rw8lViruN1A57DL3PM5dm6+b1qXpc5b+y8HFyDspY4dqI+P2UAV+2nBZAoGBAIZP
CCPXGo5f0+4LxCliw+LJWXwVGvRqWS4pA8qxJYQe1Fj3ec+4PwvR1jp+gkzcmaUs
aR+B1vla9dKN9d3ocQPHCMtf5C+78MwxpQKobUPjIS3JdbPTe+xNIs+NLXvxvbYn
68Ag4s9vLrWPtUYwfkzUAY69hxAtQN5aLInujavhAoGAdk4N/lZ1sNo/+6ewaqTZ
hYW5GGq0mASjeCRmjKXh9FAuhSr+Wo4maXJ3uaCPtIGZtf3R/SK0snLLxQe+TS1W
eGVUhygCITfr3xoSD5W64kXDMn86UM4PKjC/qzpG41ux07LEe2VRFqbPgq8435Jc
xFCPa5MXxGgZQAXYImvFlu8=
-----END TESTING KEY-----`
	// weakKeyPEM is a 1024-bit key, which update-cache refuses.
	weakKeyPEM = `-----BEGIN TESTING KEY-----
MIICeAIBADANBgkqhkiG9w0BAQEFAASCAmIwggJeAgEAAoGBANt+seYamRBFKmk0
aogupi0DieYAsXOin8SyM2+v2dqjEDAv8g7O6l1ttaX032Sjui1QCd+u0zy58nM2
Uw5oYOWF54txg48Sk7T0aA32wp4SVEJ8uSF1QE7ipwg6pVcjrY/VSFMZM05UBDm9
aG0IyOIqTopUJYTYQwIvKNJMzhi3AgMBAAECgYEAt1LlIMvcRaOPHZli1OUpc/U9
qrWvgGY2TOGNZl4Yday165lP8aBOTMRB8B9KqdK5v/jWllV9Jn4kCqg3zJPPQLel
s3XMaADejLl7mmGcqiS7ybJW7gWkfRw+b10ss8KlB+wA5mazAv8qCKP1D3U1n5gA
feFClgTRrheIryXZaoECQQD90bgulVzMURrf7j4aqlqeYQKqxwuTOykVuJExmLl/
Qz2cHvljOHA4vwFnMGixyQxHzpRm38vBF5FfQtA9gvZ3AkEA3WF6ejK3/Z2mMDe8
ubqHrrh2lNkms/ufOBFOHAq6A/OXK41z/zkdMBeDd3pL0goDa8CxvkuYjSVpnQPF
/K0/wQJBAKe1ddRZ3qomAPLrcV+fJic2BFQhFtXepkPy4wT5W7/qBwBsOu5DcWsd
UekDxHmMVS/xIH9k6jWYw/ZEqGGscfsCQCjDAQ0s94nAFFB+gsZj3QXDuznO/fxX
0Uo+jXZGV1fQ6z2+ruQIfSJUwgUmxH0pENYvRcr3GmCqydZ6UmMi90ECQQDviEAq
x6tnS6a38pnK25XXJ2K5qFyxZuOrnW+Q22Px1ugIAuAHH4Mmx8002YLMqnRJxIs6
HoXy4seCXwylJ6Bm
-----END TESTING KEY-----`
)

func testingKey(s string) string { return strings.ReplaceAll(s, "TESTING KEY", "PRIVATE KEY") }

// parseKey parses a PKCS #8 RSA private key in PEM.
func parseKey(s string) *rsa.PrivateKey {
	b, _ := pem.Decode([]byte(testingKey(s)))
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		panic(err)
	}
	return k.(*rsa.PrivateKey)
}

var (
	publisherKey = sync.OnceValue(func() *rsa.PrivateKey { return parseKey(publisherKeyPEM) })
	otherKey     = sync.OnceValue(func() *rsa.PrivateKey { return parseKey(otherKeyPEM) })
	weakKey      = sync.OnceValue(func() *rsa.PrivateKey { return parseKey(weakKeyPEM) })
)
