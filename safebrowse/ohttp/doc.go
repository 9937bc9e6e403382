// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package ohttp implements Oblivious HTTP (RFC 9458,
// https://www.rfc-editor.org/rfc/rfc9458.html) and the Binary HTTP it
// carries (RFC 9292, https://www.rfc-editor.org/rfc/rfc9292.html), as
// Google's Safe Browsing Oblivious HTTP Gateway
// (https://developers.google.com/safe-browsing/ohttp/reference) speaks
// them, except where the decisions below fill a silence. It is pure: no
// network, no goroutines. The HPKE is Go's crypto/hpke (RFC 9180).
//
// A client parses a gateway's keys with [ParseKeyConfigs] and makes a
// [Client] with [NewClient]. For each request it encodes the inner HTTP
// request with [AppendRequest], seals it with [Client.Seal], POSTs the
// result to a relay as message/ohttp-req, opens the message/ohttp-res
// reply with the [Sender] that Seal returned, and decodes it with
// [ParseResponse]. A gateway holds its keys in a [Gateway] made by
// [NewGateway], publishes them with [AppendKeyConfigs], opens requests
// with [Gateway.Open], and seals each response with the [Recipient] that
// Open returned. The shape is crypto/hpke's: a context per exchange on
// each side.
//
// # The rules
//
//   - Key configurations (RFC 9458 section 3): key ID, KEM ID and public
//     key, then the KDF and AEAD pairs. The list form
//     (application/ohttp-keys, section 3.2) puts a 2-byte length before
//     each.
//   - Request (section 4.3): header = key ID, KEM, KDF, AEAD (7 bytes);
//     HPKE base mode with info "message/bhttp request", a zero byte and
//     the header; the encapsulated request is the header, the
//     encapsulated key and the sealed Binary HTTP request, with no AAD.
//   - Response (section 4.4): secret = Export("message/bhttp response",
//     max(Nn, Nk)); a random response nonce of the same length; the KDF's
//     plain HKDF Extract with salt = enc and the nonce, then Expand to the
//     AEAD key ("key", Nk) and nonce ("nonce", Nn); the encapsulated
//     response is the nonce and the sealed Binary HTTP response.
//   - Binary HTTP (RFC 9292): a framing indicator, control data, a header
//     section, content and a trailer section, lengths as QUIC
//     variable-length integers. Field names are lowercase tokens, values
//     hold no NUL, CR or LF, and the control data's pseudo-fields
//     (:method, :scheme, :authority, :path, :status) may not appear as
//     fields.
//   - Limits: [MaxKeyConfigsSize], [MaxMessageSize] and [MaxFields],
//     checked before the work.
//
// # Decisions, where the specs are silent
//
//	a. Key configuration framing. RFC 9458 serves keys as
//	   application/ohttp-keys, but Google's page leaves the key endpoint's
//	   framing open, so [ParseKeyConfigs] takes both: it reads the list
//	   form if the whole body parses as a list holding a known KEM, and
//	   bare configurations back to back otherwise. A list skips
//	   configurations of unknown KEMs (section 3.2); bare configurations
//	   stop at one, since its length is unknown, and keep those before.
//	   An error is the list's when the body starts with a length that
//	   fits, the bare reading's otherwise.
//	b. Suite choice. RFC 9458 leaves it to the client; [NewClient] takes
//	   the first configuration, in the gateway's order, that offers a
//	   supported pair, and its first supported pair, so that the
//	   gateway's order is its preference. Supported: every KEM
//	   crypto/hpke implements (DHKEM P-256, P-384, P-521, X25519;
//	   ML-KEM-768, ML-KEM-1024; the hybrids MLKEM768-X25519,
//	   MLKEM768-P256, MLKEM1024-P384); HKDF-SHA256, -SHA384, -SHA512;
//	   AES-128-GCM and AES-256-GCM. The SHAKE KDFs are one-stage, so
//	   RFC 9458's response derivation (Extract, then Expand) has no
//	   meaning for them; ChaCha20-Poly1305 would need golang.org/x/crypto
//	   for the response, a dependency the library does not take; both are
//	   skipped as unsupported. A supported configuration whose public key
//	   its KEM rejects is an error, not skipped: it is broken, not foreign.
//	c. Gateway errors. An unknown key ID and a suite the key does not
//	   offer are both [ErrUnknownKey], the case RFC 9458 section 5.3
//	   answers with the "ohttp-key" problem type and Chromium with 422: the
//	   client's key is stale. A request that fails to open is
//	   [ErrDecrypt]; one too short is [ErrMalformed].
//	d. Binary HTTP encoding. [AppendRequest] and [AppendResponse] write
//	   the known-length form in full, empty sections included, as RFC
//	   9292's Figure 8 does, without padding; they lowercase field names,
//	   as section 3.6 asks of an encoder, and refuse what a decoder must
//	   refuse. A caller pads by appending zero bytes to the message, and
//	   [Client.Overhead] tells it the encapsulated length that makes.
//	   Decoding takes both forms, truncation where section 3.8 allows it
//	   (the missing sections are empty) and any number of zero bytes of
//	   padding after the message, truncated or not, as section 3.8 allows;
//	   padding is always checked, although the section lets a decoder skip
//	   that: anything after the message but zero bytes is [ErrBinaryHTTP]
//	   at its offset.
//	e. Binary HTTP validity. A method is a token. The scheme, authority
//	   and path may be empty (RFC 9292 allows an empty authority; the
//	   others are left to the application) but hold no control byte,
//	   space or DEL, which no URI holds. Values may hold other control
//	   bytes, which RFC 9110 section 5.5 lets a recipient keep, but not
//	   NUL, CR or LF, which it must reject. An empty value is allowed.
//	f. Errors quote no message bytes. A Binary HTTP request carries the
//	   API key in its path, so errors about messages name the problem and
//	   its offset only; errors about key configurations, which are
//	   public, quote them.
//	g. Content is copied out of the input, so a decoded message does not
//	   keep a caller's buffer; names and values share one string per
//	   field section.
//	h. A [Sender] or [Recipient] may be used more than once: opening is
//	   deterministic, and each Seal draws a fresh response nonce.
package ohttp
