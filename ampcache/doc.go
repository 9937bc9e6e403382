// Package ampcache implements the AMP Cache URL format: how an AMP Cache
// rewrites a publisher's URLs, and how a publisher reads a cache's CORS
// Origin back. The spec is "AMP Cache URL Format and Request Handling"
// (https://amp.dev/documentation/guides-and-tutorials/learn/amp-caches-and-cors/amp-cache-urls/,
// a copy in shared/spec/amp-cache-url-format.md). This package follows it
// except where the decisions below fill a silence or settle a question on
// which the existing implementations disagree.
//
// # Domain prefix
//
// [DomainPrefix] implements the spec's Combined Algorithm: the Basic
// Algorithm (punycode decode; "-" to "--"; "." to "-"; "0-" and "-0" around a
// result with "-" at positions 3 and 4; punycode encode), and the Fallback
// Algorithm ([FallbackPrefix]: base32 of SHA-256) when the Basic Algorithm
// cannot give a valid DNS label. Decisions:
//
//	a. Input. The domain is a host as it appears in a URL: ASCII A-labels or
//	   Unicode U-labels, in any case. It is processed as a browser does, with
//	   UTS #46 non-transitional processing (golang.org/x/net/idna's Lookup
//	   configuration: lowercase, NFC, "ß" kept, "。" is a dot). One trailing
//	   root dot is dropped, so "example.com." means "example.com".
//	b. Errors. These are errors, each wrapping a sentinel for [errors.Is]:
//	   an empty domain ([ErrEmpty]); an empty label, as in "a..b", ".a" or
//	   "..." ([ErrEmptyLabel]); a forbidden domain code point of the WHATWG
//	   URL standard, that is a control character, space, DEL, or one of
//	   # % / : < > ? @ [ \ ] ^ |, or invalid UTF-8 ([ErrInvalidHost]); an
//	   "xn--" label that is not valid Punycode, as "xn--", "xn---" and
//	   "xn--99999a" ([ErrInvalidPunycode]); more than 253 bytes in ASCII
//	   form, or more than 1012 bytes as given ([ErrTooLong]).
//	c. Fallback. A valid host that cannot have a human-readable prefix gets
//	   the fallback, not an error. That is when the prefix would be longer
//	   than 63 characters (counted after the wrap and the punycode encoding);
//	   when it would hold no "-" (the dotless "localhost"): the reverse
//	   algorithm reads a prefix without a hyphen as a hash, so it must be
//	   one; when the publisher host fails UTS #46 validation for lookup
//	   (CheckHyphens, STD3 rules, joiners, no leading combining mark:
//	   "in--trouble.com", "-foo.com", "_dmarc.example.com"); and when the
//	   prefix itself fails IDNA validation as one label, with the Bidi rule
//	   of RFC 5893, as Google's amppackager checks it ("hello." followed by
//	   an Arabic domain puts LTR and RTL in one label; "xn--xgb49a.xn--xgb6g"
//	   puts two kinds of Arabic digits in one label, though each label alone
//	   is valid).
//	d. "Positions 3 and 4" are byte positions in the UTF-8 of step 3's
//	   output, checked before punycode encoding: "ab-ü.com" is wrapped, to
//	   "xn--0-ab---com-0-ilb".
//	e. What the fallback hashes. The domain as given, with its ASCII letters
//	   lowercased and the root dot removed; a Unicode domain is hashed in the
//	   form given, not mapped or encoded. The AMP toolbox, amppackager and
//	   snowflake agree on this.
//
// [AppendDomainPrefix] makes no allocations for an ASCII domain; Unicode
// domains go through golang.org/x/net/idna and allocate.
package ampcache
