// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package safebrowse

import (
	"bufio"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urlspec/urlspec/internal/host"
)

// canonTest is one row of the canonicalisation tables: the rule it tests
// (the subtest name, in the spec's words where it has some), the input, and
// the canonical URL or the sentinel error.
type canonTest struct {
	rule    string
	in      string
	want    string
	wantErr error
}

// officialTests is the official test list, copied exactly from the end of
// the v4 "URLs and Hashing" page,
// https://developers.google.com/safe-browsing/v4/urls-hashing, whose
// canonicalisation steps the v5 page keeps.
var officialTests = []canonTest{
	// Two levels of escaping.
	{"official", "http://host/%25%32%35", "http://host/%25", nil},
	// Two escaped percent signs, each twice escaped.
	{"official", "http://host/%25%32%35%25%32%35", "http://host/%25%25", nil},
	// Eight levels of escaping.
	{"official", "http://host/%2525252525252525", "http://host/%25", nil},
	// Twice-escaped percent between letters.
	{"official", "http://host/asdf%25%32%35asd", "http://host/asdf%25asd", nil},
	// Lone percent signs are not escapes, and get escaped.
	{"official", "http://host/%%%25%32%35asd%%", "http://host/%25%25%25asd%25%25", nil},
	// A canonical URL stays as it is.
	{"official", "http://www.google.com/", "http://www.google.com/", nil},
	// An escaped IPv4 host is unescaped before it is parsed.
	{"official", "http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/", "http://168.188.99.26/.secure/www.ebay.com/", nil},
	// Escaped spaces stay escaped; a dot-prefixed segment is not a dot segment.
	{"official", "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/", "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/", nil},
	// An escaped '#' in the host is not a fragment; punctuation unescapes.
	{"official", "http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B", "http://host%23.com/~a!b@c%23d$e%25f^00&11*22(33)44_55+", nil},
	// One-part decimal IPv4.
	{"official", "http://3279880203/blah", "http://195.127.0.11/blah", nil},
	// A final ".." removes the segment before it.
	{"official", "http://www.google.com/blah/..", "http://www.google.com/", nil},
	// No scheme: http is assumed.
	{"official", "www.google.com/", "http://www.google.com/", nil},
	// No scheme and no path.
	{"official", "www.google.com", "http://www.google.com/", nil},
	// The fragment is removed.
	{"official", "http://www.evil.com/blah#frag", "http://www.evil.com/blah", nil},
	// The host is lowercased.
	{"official", "http://www.GOOgle.com/", "http://www.google.com/", nil},
	// Trailing dots are removed.
	{"official", "http://www.google.com.../", "http://www.google.com/", nil},
	// Tab, CR and LF are removed.
	{"official", "http://www.google.com/foo\tbar\rbaz\n2", "http://www.google.com/foobarbaz2", nil},
	// An empty query is kept.
	{"official", "http://www.google.com/q?", "http://www.google.com/q?", nil},
	// A '?' in the query is kept.
	{"official", "http://www.google.com/q?r?", "http://www.google.com/q?r?", nil},
	// A '?' inside the query is kept.
	{"official", "http://www.google.com/q?r?s", "http://www.google.com/q?r?s", nil},
	// The fragment begins at the first '#'.
	{"official", "http://evil.com/foo#bar#baz", "http://evil.com/foo", nil},
	// A ';' in the path is kept.
	{"official", "http://evil.com/foo;", "http://evil.com/foo;", nil},
	// A ';' in the query is kept.
	{"official", "http://evil.com/foo?bar;", "http://evil.com/foo?bar;", nil},
	// Control and high bytes in the host are escaped (0x80 is not UTF-8).
	{"official", "http://\x01\x80.com/", "http://%01%80.com/", nil},
	// A missing path becomes "/".
	{"official", "http://notrailingslash.com", "http://notrailingslash.com/", nil},
	// The port is dropped.
	{"official", "http://www.gotaport.com:1234/", "http://www.gotaport.com/", nil},
	// Leading and trailing spaces are trimmed.
	{"official", "  http://www.google.com/  ", "http://www.google.com/", nil},
	// A space inside the host is escaped.
	{"official", "http:// leadingspace.com/", "http://%20leadingspace.com/", nil},
	// An escaped space in the host stays escaped.
	{"official", "http://%20leadingspace.com/", "http://%20leadingspace.com/", nil},
	// An escaped space at the start, with no scheme.
	{"official", "%20leadingspace.com/", "http://%20leadingspace.com/", nil},
	// https is kept.
	{"official", "https://www.securesite.com/", "https://www.securesite.com/", nil},
	// An escaped '#' in the path stays escaped.
	{"official", "http://host.com/ab%23cd", "http://host.com/ab%23cd", nil},
	// Slashes collapse in the path, not in the query.
	{"official", "http://host.com//twoslashes?more//slashes", "http://host.com/twoslashes?more//slashes", nil},
}

// specTests are the examples in the text of the spec, the v5 "URLs and
// Hashing" page.
var specTests = []canonTest{
	// Spec: the URL must have a path, "http://google.com/", not "http://google.com".
	{"spec: the URL must have a path", "http://google.com", "http://google.com/", nil},
	// Spec step 1: do not remove the escaped forms of tab, CR and LF (e.g. %0a).
	{"spec step 1: escaped forms stay", "http://google.com/a%0ab", "http://google.com/a%0Ab", nil},
	// Spec step 2: "http://google.com/#frag ... http://google.com/".
	{"spec step 2: remove the fragment", "http://google.com/#frag", "http://google.com/", nil},
	// Host step 4: "[2001:0db8:0000::1]" becomes "[2001:db8::1]".
	{"spec host step 4: IPv6 normalised", "http://[2001:0db8:0000::1]/", "http://[2001:db8::1]/", nil},
	// Host step 4: IPv4-mapped "[::ffff:1.2.3.4]" becomes "1.2.3.4".
	{"spec host step 4: IPv4-mapped", "http://[::ffff:1.2.3.4]/", "http://1.2.3.4/", nil},
	// Host step 4: NAT64 "[64:ff9b::1.2.3.4]" becomes "1.2.3.4".
	{"spec host step 4: NAT64", "http://[64:ff9b::1.2.3.4]/", "http://1.2.3.4/", nil},
	// Spec, last step: escape "<= ASCII 32", so the space (32) too.
	{"spec last step: space is escaped", "http://google.com/a b", "http://google.com/a%20b", nil},
	// Spec, last step: escape ">= 127", so DEL (127) too.
	{"spec last step: DEL is escaped", "http://google.com/a\x7fb", "http://google.com/a%7Fb", nil},
	// Spec expressions example: "http://a.b.com/1/2.html?param=1".
	{"spec: expressions example 1", "http://a.b.com/1/2.html?param=1", "http://a.b.com/1/2.html?param=1", nil},
	// Spec expressions example: "http://a.b.c.d.e.f.com/1.html".
	{"spec: expressions example 2", "http://a.b.c.d.e.f.com/1.html", "http://a.b.c.d.e.f.com/1.html", nil},
	// Spec expressions example: "http://1.2.3.4/1/".
	{"spec: expressions example 3", "http://1.2.3.4/1/", "http://1.2.3.4/1/", nil},
	// Spec expressions example: "http://example.co.uk/1".
	{"spec: expressions example 4", "http://example.co.uk/1", "http://example.co.uk/1", nil},
}

// stepTests test each step, in the order of the spec.
var stepTests = []canonTest{
	// A tab inside the scheme is removed before the scheme is read.
	{"step 1: remove tab, CR and LF", "ht\ttp://a.com/", "http://a.com/", nil},
	// A LF inside an escape is removed first, so the escape forms.
	{"step 1: remove tab, CR and LF", "http://a.com/%2\n5", "http://a.com/%25", nil},
	// A CR inside the host.
	{"step 1: remove tab, CR and LF", "http://a.\rcom/", "http://a.com/", nil},
	// The escaped forms of tab, CR and LF stay, escaped.
	{"step 1: remove tab, CR and LF", "http://a.com/%09%0d%0A", "http://a.com/%09%0D%0A", nil},
	// A fragment in the authority.
	{"step 2: remove the fragment", "http://a.com#x/y", "http://a.com/", nil},
	// A fragment after the query.
	{"step 2: remove the fragment", "http://a.com/p?q#x", "http://a.com/p?q", nil},
	// An empty fragment.
	{"step 2: remove the fragment", "http://a.com/p#", "http://a.com/p", nil},
	// An escaped '#' is not a fragment, in the query either.
	{"step 2: remove the fragment", "http://a.com/p?q%23x", "http://a.com/p?q%23x", nil},
	// Lowercase hex escapes.
	{"step 3: unescape repeatedly", "http://a.com/%7e%7E", "http://a.com/~~", nil},
	// An escape completed by an unescaped byte before it: "%%32%35" is "%25", then "%".
	{"step 3: unescape repeatedly", "http://a.com/%%32%35", "http://a.com/%25", nil},
	// A broken escape at the end.
	{"step 3: unescape repeatedly", "http://a.com/%2", "http://a.com/%252", nil},
	// A broken escape with a non-hex digit.
	{"step 3: unescape repeatedly", "http://a.com/%zz", "http://a.com/%25zz", nil},
	// Unescaping may create a query: the query begins at the first '?'.
	{"step 3: unescape repeatedly", "http://a.com/p%3Fq", "http://a.com/p?q", nil},
	// Unescaping may create a dot segment, which the path rules resolve.
	{"step 3: unescape repeatedly", "http://a.com/b/%2e%2E/c", "http://a.com/c", nil},
	// Unescaping the host may end it: the rest joins the path.
	{"step 3: unescape repeatedly", "http://a.com%2Fb/c", "http://a.com/b/c", nil},
	// Unescaping the host may reveal a port, which is dropped.
	{"step 3: unescape repeatedly", "http://a.com%3A80/", "http://a.com/", nil},
	// Unescaping the host may reveal a userinfo, which is dropped.
	{"step 3: unescape repeatedly", "http://u%40a.com/", "http://a.com/", nil},
	// An escaped NUL, unescaped and escaped again.
	{"step 3: unescape repeatedly", "http://a.com/%00", "http://a.com/%00", nil},
	// Leading dots.
	{"host step 1: remove leading and trailing dots", "http://..a.com/", "http://a.com/", nil},
	// Leading and trailing dots, escaped.
	{"host step 1: remove leading and trailing dots", "http://%2Ea.com%2E/", "http://a.com/", nil},
	// A host of dots is no host.
	{"host step 1: remove leading and trailing dots", "http://.../", "", ErrNoHost},
	// Runs of dots.
	{"host step 2: collapse runs of dots", "http://a...b..com/", "http://a.b.com/", nil},
	// Fewer than four parts: two.
	{"host step 3: IPv4", "http://1.2/", "http://1.0.0.2/", nil},
	// Fewer than four parts: three.
	{"host step 3: IPv4", "http://1.2.3/", "http://1.2.0.3/", nil},
	// Hex parts.
	{"host step 3: IPv4", "http://0x12.0x43.0x44.0x01/", "http://18.67.68.1/", nil},
	// Octal parts.
	{"host step 3: IPv4", "http://012.034.01.055/", "http://10.28.1.45/", nil},
	// Uppercase hex prefix and digits.
	{"host step 3: IPv4", "http://0XC0.0XA8.0X1.0XFF/", "http://192.168.1.255/", nil},
	// Empty hex is zero, as in a browser.
	{"host step 3: IPv4", "http://0x.0x.0x.0x/", "http://0.0.0.0/", nil},
	// A one-part hex address.
	{"host step 3: IPv4", "http://0xc37f000b/", "http://195.127.0.11/", nil},
	// A one-part octal address.
	{"host step 3: IPv4", "http://030337600013/", "http://195.127.0.11/", nil},
	// Zero.
	{"host step 3: IPv4", "http://0/", "http://0.0.0.0/", nil},
	// The largest one-part address.
	{"host step 3: IPv4", "http://4294967295/", "http://255.255.255.255/", nil},
	// Trailing dot removed first, then IPv4.
	{"host step 3: IPv4", "http://1.2.3.4./", "http://1.2.3.4/", nil},
	// Runs of dots collapsed first, then IPv4.
	{"host step 3: IPv4", "http://1..2...3.4/", "http://1.2.3.4/", nil},
	// Leading zeros in decimal are octal: 010 is 8.
	{"host step 3: IPv4", "http://010.010.010.010/", "http://8.8.8.8/", nil},
	// Compressed IPv6, leading zeros dropped.
	{"host step 4: IPv6", "http://[0000:0000:0000:0000:0000:0000:0000:0001]/", "http://[::1]/", nil},
	// RFC 5952: the longest zero run is compressed.
	{"host step 4: IPv6", "http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/", nil},
	// RFC 5952: of two equal runs, the first.
	{"host step 4: IPv6", "http://[1:0:0:2:0:0:3:4]/", "http://[1::2:0:0:3:4]/", nil},
	// RFC 5952: a single zero piece is not compressed.
	{"host step 4: IPv6", "http://[1:2:3:4:5:6::8]/", "http://[1:2:3:4:5:6:0:8]/", nil},
	// RFC 5952: lowercase.
	{"host step 4: IPv6", "http://[2001:DB8::ABCD]/", "http://[2001:db8::abcd]/", nil},
	// An IPv4 tail outside the mapped and NAT64 prefixes is written in hex.
	{"host step 4: IPv6", "http://[::1.2.3.4]/", "http://[::102:304]/", nil},
	// The port after the brackets is dropped.
	{"host step 4: IPv6", "http://[::1]:8080/", "http://[::1]/", nil},
	// IPv4-mapped in hex.
	{"host step 4: IPv4-mapped", "http://[::ffff:c37f:b]/", "http://195.127.0.11/", nil},
	// IPv4-mapped, full form.
	{"host step 4: IPv4-mapped", "http://[0:0:0:0:0:FFFF:1.2.3.4]/", "http://1.2.3.4/", nil},
	// NAT64 in hex.
	{"host step 4: NAT64", "http://[64:ff9b::102:304]/", "http://1.2.3.4/", nil},
	// Outside NAT64: 64:ff9b:1::/48 is the local-use prefix.
	{"host step 4: NAT64", "http://[64:ff9b:1::102:304]/", "http://[64:ff9b:1::102:304]/", nil},
	// Brackets that hold no IPv6 address.
	{"host step 4: IPv6", "http://[1.2.3.4]/", "", ErrInvalidHost},
	// A zone is not allowed.
	{"host step 4: IPv6", "http://[fe80::1%25eth0]/", "", ErrInvalidHost},
	// Too many pieces.
	{"host step 4: IPv6", "http://[1:2:3:4:5:6:7:8:9]/", "", ErrInvalidHost},
	// No closing bracket.
	{"host step 4: IPv6", "http://[::1/", "", ErrInvalidHost},
	// A leading zero in the IPv4 tail.
	{"host step 4: IPv6", "http://[::ffff:1.2.3.04]/", "", ErrInvalidHost},
	// Uppercase ASCII.
	{"host step 5: lowercase", "http://WWW.EXAMPLE.COM/", "http://www.example.com/", nil},
	// Lowercase the host, not the path or the query.
	{"host step 5: lowercase", "http://A.COM/P?Q", "http://a.com/P?Q", nil},
	// The scheme is lowercased too.
	{"host step 5: lowercase", "HTTP://A.COM/", "http://a.com/", nil},
	// IDN: a German host, from the idna package's doc.
	{"IDN: punycode", "http://bücher.example.com/", "http://xn--bcher-kva.example.com/", nil},
	// IDN: escaped UTF-8 is unescaped, then converted.
	{"IDN: punycode", "http://b%C3%BCcher.de/", "http://xn--bcher-kva.de/", nil},
	// IDN: uppercase is mapped (UTS #46).
	{"IDN: punycode", "http://BÜCHER.DE/", "http://xn--bcher-kva.de/", nil},
	// IDN: non-transitional, ß stays (as in browsers); transitional gives "fass".
	{"IDN: punycode", "http://faß.de/", "http://xn--fa-hia.de/", nil},
	// IDN: full-width dots and digits map to ASCII, then the host is IPv4.
	{"IDN: punycode", "http://１２７．０．０．１/", "http://127.0.0.1/", nil},
	// IDN: the ideographic full stop is a dot; runs collapse after mapping.
	{"IDN: punycode", "http://a。。bü.com/", "http://a.xn--b-eha.com/", nil},
	// IDN: full-width solidus maps to '/', which a browser rejects: bytes kept.
	{"IDN: punycode", "http://a／b.com/", "http://a%EF%BC%8Fb.com/", nil},
	// IDN: invalid under UTS #46 (U+FFFD): bytes kept and escaped.
	{"IDN: punycode", "http://\uFFFD.com/", "http://%EF%BF%BD.com/", nil},
	// Resolve "/./".
	{"path step 1: resolve /./", "http://a.com/b/./c", "http://a.com/b/c", nil},
	// A final "/.".
	{"path step 1: resolve /./", "http://a.com/b/.", "http://a.com/b/", nil},
	// Resolve "/../" with the component before it.
	{"path step 1: resolve /../", "http://a.com/b/c/../d", "http://a.com/b/d", nil},
	// "/../" at the root stays at the root.
	{"path step 1: resolve /../", "http://a.com/../../d", "http://a.com/d", nil},
	// Dots inside a segment are kept.
	{"path step 1: resolve /../", "http://a.com/b/..c/.d/...", "http://a.com/b/..c/.d/...", nil},
	// Dot segments are resolved before slashes collapse: ".." removes the empty segment.
	{"path step 1: resolve /../", "http://a.com/b//../c", "http://a.com/b/c", nil},
	// Not in the query.
	{"path: not the query", "http://a.com/b?c/../d/./e", "http://a.com/b?c/../d/./e", nil},
	// Runs of slashes.
	{"path step 2: collapse slashes", "http://a.com///b////c//", "http://a.com/b/c/", nil},
	// A backslash is a slash in the path, as in a browser.
	{"path step 2: collapse slashes", `http://a.com\b\\c`, "http://a.com/b/c", nil},
	// Not in the query.
	{"path step 2: collapse slashes", `http://a.com/b?c//d\\e`, `http://a.com/b?c//d\\e`, nil},
	// Every byte <= 0x20 is escaped.
	{"escape", "http://a.com/%01%1F%20", "http://a.com/%01%1F%20", nil},
	// Every byte >= 0x7F is escaped, in uppercase hex, in the query too.
	{"escape", "http://a.com/é?é", "http://a.com/%C3%A9?%C3%A9", nil},
	// '!' (0x21) and '~' (0x7E) are not.
	{"escape", "http://a.com/!~", "http://a.com/!~", nil},
}

// decisionTests test each decision of the package doc.
var decisionTests = []canonTest{
	// Bytes <= 0x20 are trimmed, not only spaces.
	{"decision: trim", "\x00\x01 http://a.com/ \x1f", "http://a.com/", nil},
	// Uppercase scheme.
	{"decision: lowercase the scheme", "HtTpS://a.com/", "https://a.com/", nil},
	// ftp is kept.
	{"decision: hierarchical schemes", "ftp://a.com/f", "ftp://a.com/f", nil},
	// Any scheme followed by "//" is kept.
	{"decision: hierarchical schemes", "git+ssh://a.com/r", "git+ssh://a.com/r", nil},
	// A special scheme needs no slashes, as in a browser.
	{"decision: hierarchical schemes", "http:a.com/", "http://a.com/", nil},
	// Backslashes after a special scheme.
	{"decision: hierarchical schemes", `https:\\a.com\b`, "https://a.com/b", nil},
	// mailto: is not hierarchical.
	{"decision: non-hierarchical schemes", "mailto:someone@example.com", "", ErrScheme},
	// javascript: is not hierarchical.
	{"decision: non-hierarchical schemes", "javascript:alert(1)", "", ErrScheme},
	// data: is not hierarchical.
	{"decision: non-hierarchical schemes", "data:text/html,hi", "", ErrScheme},
	// A host and port without a scheme.
	{"decision: no scheme", "localhost:8080/x", "http://localhost/x", nil},
	// A host and port without a scheme, no path.
	{"decision: no scheme", "example.com:443", "http://example.com/", nil},
	// The backslash ends the authority: the host is evil.com, as in a browser.
	{"decision: browser authority", `http://evil.com\@good.com/`, "http://evil.com/@good.com/", nil},
	// The userinfo is removed, up to the last '@'.
	{"decision: browser authority", "http://u:p@w@a.com/", "http://a.com/", nil},
	// An escaped '/' in the userinfo does not end the authority.
	{"decision: browser authority", "http://good.com%2F@evil.com/", "http://evil.com/", nil},
	// A '?' ends the authority.
	{"decision: browser authority", "http://a.com?b@c", "http://a.com/?b@c", nil},
	// A port that is not digits fails the parse, as in a browser.
	{"decision: browser authority", "http://a.com:x/", "", ErrInvalidPort},
	// http:///path has no host.
	{"decision: no host", "http:///path", "", ErrNoHost},
	// A path alone has no host.
	{"decision: no host", "/path", "", ErrNoHost},
	// A query alone has no host.
	{"decision: no host", "?q", "", ErrNoHost},
	// A fragment alone has no host.
	{"decision: no host", "#f", "", ErrNoHost},
	// No host, found after removing a tab (the tab path).
	{"decision: no host", "http:/\t//path", "", ErrNoHost},
	// A userinfo alone has no host.
	{"decision: no host", "http://user@/", "", ErrNoHost},
	// A port alone has no host.
	{"decision: no host", "http://:80/", "", ErrNoHost},
	// An empty string.
	{"decision: no host", "", "", ErrEmpty},
	// Spaces only.
	{"decision: no host", " \t ", "", ErrEmpty},
	// Invalid UTF-8 is not an error: its bytes are escaped.
	{"decision: invalid UTF-8", "http://a.com/\xff\xfe", "http://a.com/%FF%FE", nil},
	// A '?' with nothing after it is kept, even with no path.
	{"decision: empty query", "http://a.com?", "http://a.com/?", nil},
	// A part above 255 before the last: not IPv4, a host name.
	{"decision: invalid IPv4", "http://256.1.1.1/", "http://256.1.1.1/", nil},
	// The last part too large for the bytes left.
	{"decision: invalid IPv4", "http://1.2.65536/", "http://1.2.65536/", nil},
	// One part of 2^32 or more.
	{"decision: invalid IPv4", "http://4294967296/", "http://4294967296/", nil},
	// Five parts.
	{"decision: invalid IPv4", "http://1.2.3.4.5/", "http://1.2.3.4.5/", nil},
	// An octal part with an 8.
	{"decision: invalid IPv4", "http://08.1.1.1/", "http://08.1.1.1/", nil},
	// A hex part with a non-hex letter.
	{"decision: invalid IPv4", "http://0xg.1.1.1/", "http://0xg.1.1.1/", nil},
	// A name that ends in a number.
	{"decision: invalid IPv4", "http://a.1/", "http://a.1/", nil},
	// ASCII "xn--" labels are not checked (no IDNA on ASCII).
	{"decision: IDN", "http://XN--ZZZ.com/", "http://xn--zzz.com/", nil},
	// Over 2 MiB.
	{"decision: length", "http://a.com/" + strings.Repeat("a", maxURLLen), "", ErrTooLong},
}

// portTests test decision b's port rule: a port is empty, or one or more
// ASCII digits of value at most 65535, as in a browser; any other fails.
var portTests = []canonTest{
	// Above 65535, an error in a browser.
	{"decision b: invalid port", "http://example.org:99999/", "", ErrInvalidPort},
	// A letter after a digit.
	{"decision b: invalid port", "http://example.org:8x/", "", ErrInvalidPort},
	// A sign is not a digit.
	{"decision b: invalid port", "http://example.org:-1/", "", ErrInvalidPort},
	// A second colon is part of the port.
	{"decision b: invalid port", "http://example.org:1:2/", "", ErrInvalidPort},
	// One above the largest port.
	{"decision b: invalid port", "http://example.org:65536/", "", ErrInvalidPort},
	// A long run of digits is too large, and does not overflow.
	{"decision b: invalid port", "http://example.org:99999999999999999999999/", "", ErrInvalidPort},
	// Hex is not a port.
	{"decision b: invalid port", "http://example.org:0x50/", "", ErrInvalidPort},
	// Escaped digits are not digits: a browser reads the port before unescaping.
	{"decision b: invalid port", "http://example.org:%38%30/", "", ErrInvalidPort},
	// After an IPv6 address.
	{"decision b: invalid port", "http://[::1]:x/", "", ErrInvalidPort},
	// A host and port without a scheme, the port too large.
	{"decision b: invalid port", "example.com:99999", "", ErrInvalidPort},
	// The largest port.
	{"decision b: valid port", "http://example.org:65535/", "http://example.org/", nil},
	// An empty port is no port.
	{"decision b: valid port", "http://example.org:/", "http://example.org/", nil},
	// Zero.
	{"decision b: valid port", "http://example.org:0/", "http://example.org/", nil},
	// Leading zeros are allowed, as in a browser.
	{"decision b: valid port", "http://example.org:0000000000080/", "http://example.org/", nil},
	// A colon in the userinfo is not a port.
	{"decision b: valid port", "http://u:p@example.org:8080/", "http://example.org/", nil},
	// The scheme-less "host:8080/path" rule stays.
	{"decision b: valid port", "host:8080/path", "http://host/path", nil},
	// After an IPv6 address.
	{"decision b: valid port", "http://[::1]:65535/", "http://[::1]/", nil},
	// Unclosed brackets hold the rest of the authority: no port, no address.
	{"decision b: valid port", "http://[::1:80/", "", ErrInvalidHost},
}

// schemeRelativeTests test decision a's scheme-relative input.
var schemeRelativeTests = []canonTest{
	// A host, as a scheme-less input is, so http is assumed.
	{"decision a: scheme-relative", "//example.net:8080/x", "http://example.net/x", nil},
	// No path.
	{"decision a: scheme-relative", "//example.net", "http://example.net/", nil},
	// Backslashes, as after a special scheme.
	{"decision a: scheme-relative", `\\example.net\x`, "http://example.net/x", nil},
	// The userinfo is dropped.
	{"decision a: scheme-relative", "//user@example.net/", "http://example.net/", nil},
	// The port rule applies.
	{"decision a: scheme-relative", "//example.net:99999/", "", ErrInvalidPort},
	// Three slashes leave an empty host, as "http:///path" does.
	{"decision a: scheme-relative", "///example.net/x", "", ErrNoHost},
	// One slash is a path.
	{"decision a: scheme-relative", "/example.net/x", "", ErrNoHost},
}

// escapedSchemeTests test decision g on both sides of its line: an input
// whose scheme is escaped, or whose host as read is no valid host, is read
// again once unescaped when that begins with "scheme://"; any other input
// is read as a browser reads it.
var escapedSchemeTests = []canonTest{
	// An escaped scheme and authority.
	{"decision g: escaped scheme", "http%3A%2F%2Fexample.org:80/a", "http://example.org/a", nil},
	// One escaped letter of the scheme.
	{"decision g: escaped scheme", "ht%74p://evil.com/login", "http://evil.com/login", nil},
	// The first letter escaped.
	{"decision g: escaped scheme", "%68ttp://evil.com/", "http://evil.com/", nil},
	// Escaped twice: unescaped repeatedly.
	{"decision g: escaped scheme", "%2568ttp://evil.com/", "http://evil.com/", nil},
	// Upper case, the colon escaped: the scheme and host are lowercased.
	{"decision g: escaped scheme", "HT%54P%3A//EVIL.com/", "http://evil.com/", nil},
	// Every delimiter escaped: the query is found once unescaped.
	{"decision g: escaped scheme", "https%3A%2F%2Fevil.com%2Fa%3Fb", "https://evil.com/a?b", nil},
	// Any hierarchical scheme.
	{"decision g: escaped scheme", "ftp%3A//a.com/f", "ftp://a.com/f", nil},
	// The unescaped input's port must be a port.
	{"decision g: escaped scheme", "http%3A%2F%2Fexample.org%3A99999/", "", ErrInvalidPort},
	// The port as first read belongs to a reading the decision replaces.
	{"decision g: escaped scheme", "http%3A%2F%2Fexample.org%2F:x/", "http://example.org/:x/", nil},
	// The fragment was removed before unescaping: an escaped '#' is a byte.
	{"decision g: escaped scheme", "ht%74p://evil.com/a%23b", "http://evil.com/a%23b", nil},
	// Escaped slashes after the scheme: the host as read, "//evil.com", is no host.
	{"decision g: host is no host", "http:%2F%2Fevil.com/", "http://evil.com/", nil},
	// A host as read that unescapes to a scheme and authority.
	{"decision g: host is no host", "http://http%3A%2F%2Fevil.com/", "http://http/evil.com/", nil},
	// A host with a space once unescaped is no host: Google's reading wins.
	{"decision g: host is no host", "http://a%2Fb@c%20d.com/", "http://a/b@c%20d.com/", nil},
	// Decision b stays for a URL a browser can open.
	{"decision g: valid host", "http://good.com%2F@evil.com/", "http://evil.com/", nil},
	// Escaped delimiters in the userinfo, with a valid host.
	{"decision g: valid host", "http://a%3A%2F%2Fgood.com@evil.com/x", "http://evil.com/x", nil},
	// An escaped scheme in the path is not read.
	{"decision g: valid host", "http://evil.com/ht%74p://x", "http://evil.com/http:/x", nil},
	// Escapes in a valid host, read as before.
	{"decision g: valid host", "http://ev%69l.com/", "http://evil.com/", nil},
	// No scheme, and the unescaped input has none: read as before.
	{"decision g: no scheme once unescaped", "a.com%2Fb/c", "http://a.com/b/c", nil},
	// "javascript:" once unescaped has no "//": read as before.
	{"decision g: no scheme once unescaped", "javascript%3Aalert(1)", "http://javascript/", nil},
}

// allCanonTests returns every table, in order.
func allCanonTests() []canonTest {
	var all []canonTest
	for _, t := range [][]canonTest{officialTests, specTests, stepTests, decisionTests, portTests, schemeRelativeTests, escapedSchemeTests} {
		all = append(all, t...)
	}
	return all
}

func TestCanonicalize(t *testing.T) {
	for _, tt := range allCanonTests() {
		t.Run(tt.rule+"/"+tt.in, func(t *testing.T) {
			got, err := Canonicalize(tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Canonicalize(%q) = %q, %v; want error %v", tt.in, got, err, tt.wantErr)
				}
				if got != "" {
					t.Errorf("Canonicalize(%q) = %q with an error; want \"\"", tt.in, got)
				}
				if !strings.HasPrefix(err.Error(), "safebrowse: ") {
					t.Errorf("error %q lacks the package prefix", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Canonicalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			// Idempotent.
			if again, err := Canonicalize(got); again != got || err != nil {
				t.Errorf("Canonicalize(%q) = %q, %v; want it unchanged", got, again, err)
			}
		})
	}
}

// TestErrorMessages checks that each error begins with the package name,
// quotes the input and says what is wrong.
func TestErrorMessages(t *testing.T) {
	tests := []struct{ in, want string }{
		// Empty.
		{"", `safebrowse: empty URL in ""`},
		// Non-hierarchical scheme, named.
		{"javascript:alert(1)", `safebrowse: unsupported scheme in "javascript:alert(1)": "javascript" is not hierarchical`},
		// No host.
		{"http:///path", `safebrowse: URL has no host in "http:///path"`},
		// Bad brackets.
		{"http://[::g]/", `safebrowse: invalid host in "http://[::g]/": brackets hold no IPv6 address`},
		// A port that is not a port, named.
		{"http://example.org:99999/", `safebrowse: invalid port in "http://example.org:99999/": "99999" is not a port`},
		// A long input is quoted up to its first 100 bytes, and its length given.
		{"javascript:" + strings.Repeat("x", 200), `safebrowse: unsupported scheme in "javascript:` + strings.Repeat("x", 89) + `"... (211 bytes): "javascript" is not hierarchical`},
		// A character that straddles byte 100 is left out whole, not cut.
		{"javascript:" + strings.Repeat("x", 88) + "é", `safebrowse: unsupported scheme in "javascript:` + strings.Repeat("x", 88) + `"... (101 bytes): "javascript" is not hierarchical`},
		// A long scheme is quoted in the detail as the input is.
		{strings.Repeat("a", 200) + ":x", `safebrowse: unsupported scheme in "` + strings.Repeat("a", 100) + `"... (202 bytes): "` + strings.Repeat("a", 100) + `"... (200 bytes) is not hierarchical`},
		// Too long: quoted as any input is, with its length and the bound.
		{"http://a.com/" + strings.Repeat("x", maxURLLen), `safebrowse: URL too long in "http://a.com/` + strings.Repeat("x", 87) + `"... (2097165 bytes): over the bound of 2097152 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := Canonicalize(tt.in)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Canonicalize(%.40q) error = %v; want %s", tt.in, err, tt.want)
			}
		})
	}
}

// TestCanonicalizeOracle checks the slow oracle on every table row, so that
// it can be trusted under fuzzing.
func TestCanonicalizeOracle(t *testing.T) {
	for _, tt := range allCanonTests() {
		t.Run(tt.rule+"/"+tt.in, func(t *testing.T) {
			got, err := canonicalSlow(tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("canonicalSlow(%q) = %q, %v; want error %v", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("canonicalSlow(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestAppendCanonical(t *testing.T) {
	for _, tt := range allCanonTests() {
		t.Run(tt.rule+"/"+tt.in, func(t *testing.T) {
			prefix := []byte("prefix ")
			got, err := AppendCanonical(prefix, tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || string(got) != "prefix " {
					t.Fatalf("AppendCanonical(%q) = %q, %v; want \"prefix \", %v", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != "prefix "+tt.want {
				t.Fatalf("AppendCanonical(%q) = %q, %v; want %q", tt.in, got, err, "prefix "+tt.want)
			}
		})
	}
}

// TestAppendCanonicalNoAllocs checks that AppendCanonical allocates nothing
// on ASCII input when dst has room, for every ASCII row and corpus URL.
// Escaped non-ASCII (an escaped IDN) may allocate.
func TestAppendCanonicalNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments allocations; run without -race")
	}
	ins := corpus(t)
	for _, tt := range allCanonTests() {
		if tt.wantErr == nil {
			ins = append(ins, tt.in)
		}
	}
	dst := make([]byte, 0, 4096)
	for _, in := range ins {
		if !host.IsASCII(string(appendUnescaped(nil, in))) {
			continue
		}
		if n := testing.AllocsPerRun(100, func() { AppendCanonical(dst, in) }); n != 0 {
			t.Errorf("AppendCanonical(dst, %q): %v allocs; want 0", in, n)
		}
	}
}

// TestLinearTime checks that the time to canonicalise grows linearly with
// the input: 2 MB takes about twice as long as 1 MB. A quadratic algorithm
// takes four times as long or more (seconds, at this size); the bound, 3x,
// leaves room for noise, and a measure is retried up to five times, since
// the machine may be busy. Under -race, which makes this code 20 times
// slower, the sizes are a quarter: 512 KB against 256 KB still shows a
// quadratic algorithm four times as long, since its quadratic part is
// still far the larger; .ci/run runs the full sizes without -race.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	size := int(1e6)
	if raceEnabled {
		size /= 4
	}
	for _, tc := range []struct{ name, prefix, unit string }{
		{"escaped percent", "http://a.com/", "%25"},
		{"nested escapes", "http://a.com/%", "25"},
		{"dot-dot segments", "http://a.com/", "a/../"},
		{"dot segments", "http://a.com/", "./"},
		{"dots in the host", "http://a", "."},
		{"slashes", "http://a.com/", "/"},
		{"escaped host", "http://", "%41"},
		{"escaped IDN host", "http://", "%C3%BC"},
		{"nested escapes split by tabs", "http://a.com/%", "2\t5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mk := func(n int) string {
				return tc.prefix + strings.Repeat(tc.unit, (n-len(tc.prefix))/len(tc.unit))
			}
			small, large := mk(size), mk(2*size)
			dst := make([]byte, 0, 3*len(large)+64)
			measure := func(s string) time.Duration {
				best := time.Duration(1 << 62)
				for range 3 {
					start := time.Now()
					AppendCanonical(dst, s)
					best = min(best, time.Since(start))
				}
				return best
			}
			var ts, tl time.Duration
			for range 5 {
				ts, tl = measure(small), measure(large)
				if tl < 3*ts+time.Millisecond {
					return
				}
			}
			t.Errorf("%d bytes: %v; %d bytes: %v; want about twice", len(small), ts, len(large), tl)
		})
	}
}

// corpus returns the benchmark corpus, testdata/sbcorpus.txt: one URL a
// line, '#' lines are comments.
func corpus(tb testing.TB) []string {
	f, err := os.Open("../testdata/sbcorpus.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var urls []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			urls = append(urls, line)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return urls
}

//go:generate go run gen_corpus.go

// BenchmarkAppendCanonical reports the time and allocations per URL over
// the mixed corpus of testdata/sbcorpus.txt: wall time (ns/URL) and, on
// Linux, the CPU time of the benchmark's thread (cpu-ns/URL), which other
// work on a busy machine does not inflate.
func BenchmarkAppendCanonical(b *testing.B) {
	urls := corpus(b)
	dst := make([]byte, 0, 4096)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, cpuOK := threadCPU()
	for i := 0; i < b.N; i++ {
		for _, u := range urls {
			dst, _ = AppendCanonical(dst[:0], u)
		}
	}
	cpu1, _ := threadCPU()
	b.StopTimer()
	n := float64(b.N * len(urls))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/URL")
	if cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/n, "cpu-ns/URL")
	}
	b.ReportMetric(float64(testing.AllocsPerRun(1, func() {
		for _, u := range urls {
			dst, _ = AppendCanonical(dst[:0], u)
		}
	}))/float64(len(urls)), "allocs/URL")
}

// BenchmarkCanonicalize measures the string form over the same corpus.
func BenchmarkCanonicalize(b *testing.B) {
	urls := corpus(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	cpu0, cpuOK := threadCPU()
	for i := 0; i < b.N; i++ {
		for _, u := range urls {
			Canonicalize(u)
		}
	}
	cpu1, _ := threadCPU()
	n := float64(b.N * len(urls))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/URL")
	if cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/n, "cpu-ns/URL")
	}
}

// FuzzAnyEscape checks the eight-byte test against the byte table.
func FuzzAnyEscape(f *testing.F) {
	for _, s := range []string{"abcdefgh", "abcdefg#", "%bcdefghi", "abcdefgh\x7f", "abc\x80", "\x20\x21\x22\x24", "!!!!!!!!!!!!!!!\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := anyEscape(b), countEscapes(b) > 0; got != want {
			t.Fatalf("anyEscape(%q) = %v; want %v", b, got, want)
		}
	})
}

// FuzzCleanPath checks the eight-byte path test against a byte loop.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"/a/b/c", "/a//b", "/a/./b", "/abcdefg/.", "/abcdefg//", "/a\\b", "/abcdef/", "/abcdefghijklmn/."} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := true
		for i, c := range b {
			if c == '\\' || c == '/' && i+1 < len(b) && (b[i+1] == '/' || b[i+1] == '.') {
				want = false
			}
		}
		if got := cleanPath(b); got != want {
			t.Fatalf("cleanPath(%q) = %v; want %v", b, got, want)
		}
	})
}

// FuzzUnescape checks appendUnescaped against the slow oracle's pass after
// pass, after a prefix that it must leave alone (a '%' and a digit that end
// it complete no escape), with dst's spare capacity from none to plenty, as
// the eight-byte copies depend on it.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"", "%", "%4", "%41", "%2541", "%%41", "%2%41", "%4%31", "%25%34%31", "abcdefgh%41ijklmnop",
		"%252525252525252541", "a%zz%4g%", "%3%33%33", "%41bcdefgh%%%2525"} {
		f.Add("", s, uint8(64))
		f.Add("%4", s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, prefix, s string, spare uint8) {
		dst := append(make([]byte, 0, len(prefix)+int(spare)), prefix...)
		got := appendUnescaped(dst, s)
		if want := prefix + unescapeSlow(s); string(got) != want {
			t.Fatalf("appendUnescaped(%q, %q) = %q; want %q", prefix, s, got, want)
		}
	})
}
