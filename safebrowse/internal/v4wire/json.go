// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urlspec/urlspec/internal/inputerr"
	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// This file holds the values of Google's JSON mapping of the messages (the
// proto3 JSON mapping), and the key normalization that lets the readers
// take proto field names beside JSON names.

// jbytes is a bytes field: written as standard base64 with padding (the
// default of encoding/json), read in standard or URL-safe base64, padded
// or not.
type jbytes []byte

func (b *jbytes) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	s := data
	if len(data) < 2 || data[0] != '"' || bytes.IndexByte(data, '\\') >= 0 {
		// Escapes, which base64 does not need but JSON allows.
		var u string
		if err := json.Unmarshal(data, &u); err != nil {
			return err
		}
		s = []byte(u)
	} else {
		s = data[1 : len(data)-1]
	}
	v, err := decodeBase64(s)
	if err != nil {
		return fmt.Errorf("bytes %s are not base64", quoteBytes(s))
	}
	*b = v
	return nil
}

// decodeBase64 decodes s as [v5wire.DecodeBytes] does, from a byte slice:
// standard or URL-safe base64, padded or not.
func decodeBase64(s []byte) ([]byte, error) {
	t := bytes.TrimRight(s, "=")
	enc := base64.RawStdEncoding
	if bytes.ContainsAny(t, "-_") {
		enc = base64.RawURLEncoding
	}
	dst := make([]byte, enc.DecodedLen(len(t)))
	n, err := enc.Decode(dst, t)
	return dst[:n], err
}

// jint32 is an int32 field: written as a number, read from a number or a
// string holding one.
type jint32 int32

func (v *jint32) UnmarshalJSON(data []byte) error {
	x, err := readInt(data, 32)
	if err == nil && string(data) != "null" {
		*v = jint32(x)
	}
	return err
}

// jint64 is an int64 field: written as a decimal string, as the JSON
// mapping writes 64-bit integers (and Google's generated Go clients read
// them, with ",string"), read from a string or a number.
type jint64 int64

func (v jint64) MarshalJSON() ([]byte, error) {
	b := append([]byte{'"'}, strconv.FormatInt(int64(v), 10)...)
	return append(b, '"'), nil
}

func (v *jint64) UnmarshalJSON(data []byte) error {
	x, err := readInt(data, 64)
	if err == nil && string(data) != "null" {
		*v = jint64(x)
	}
	return err
}

// readInt reads an integer of the given bits from a JSON number or a JSON
// string holding one, in decimal; null reads as 0.
func readInt(data []byte, bits int) (int64, error) {
	if string(data) == "null" {
		return 0, nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return 0, err
		}
		data = []byte(s)
	}
	return parseInt(data, bits)
}

// parseInt reads a decimal integer of the given bits: digits, with an
// optional leading minus sign. It allocates nothing unless it fails.
func parseInt(s []byte, bits int) (int64, error) {
	digits := s
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > 19 {
		return 0, fmt.Errorf("%s is not an int%d", quoteBytes(s), bits)
	}
	var v uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%s is not an int%d", quoteBytes(s), bits)
		}
		v = v*10 + uint64(c-'0') // 19 digits fit a uint64
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the most negative value
	if v > limit || !neg && v == limit {
		return 0, fmt.Errorf("%s overflows int%d", quoteBytes(s), bits)
	}
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// jduration is a google.protobuf.Duration field: "300s", "1.500s", read
// under the policy of v5wire.ParseJSONDuration.
type jduration time.Duration

func (d jduration) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, v5wire.FormatDuration(time.Duration(d))), nil
}

func (d *jduration) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	v, err := v5wire.ParseJSONDuration(s)
	if err != nil {
		return err
	}
	*d = jduration(v)
	return nil
}

// optDuration returns the JSON form of a Duration field: d when has is set
// or d is not zero, else nil (left out).
func optDuration(d time.Duration, has bool) *jduration {
	if !has && d == 0 {
		return nil
	}
	j := jduration(d)
	return &j
}

// fromOptDuration reads back what optDuration writes.
func fromOptDuration(j *jduration) (time.Duration, bool) {
	if j == nil {
		return 0, false
	}
	return time.Duration(*j), true
}

// jtime is a google.protobuf.Timestamp field, read and written as
// [FormatTimestamp] and [ParseJSONTimestamp] do.
type jtime time.Time

func (t jtime) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, FormatTimestamp(time.Time(t))), nil
}

func (t *jtime) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	v, err := ParseJSONTimestamp(s)
	if err != nil {
		return err
	}
	*t = jtime(v)
	return nil
}

// optTime returns the JSON form of a Timestamp field, nil (left out) for
// the zero time.
func optTime(t time.Time) *jtime {
	if t.IsZero() {
		return nil
	}
	j := jtime(t)
	return &j
}

func fromOptTime(j *jtime) time.Time {
	if j == nil {
		return time.Time{}
	}
	return time.Time(*j)
}

// Limits of the JSON readers, beyond the input's length: no message of
// the two APIs comes near them.
const (
	maxJSONDepth = 64 // objects and arrays nested
	maxJSONKeys  = 64 // keys of one object
)

var (
	errJSONSyntax = errors.New("malformed JSON")
	errJSONDense  = fmt.Errorf("more objects and strings in arrays than one per %d bytes", jsonBytesPerMessage)
)

// decodeJSON reads one JSON object, with nothing after it, into v, after
// normalizing its keys. The JSON must be UTF-8, as protobuf's parsers
// require: encoding/json would read invalid bytes as U+FFFD, and a URL so
// changed is not the one the client asked about.
func decodeJSON(data []byte, v any) error {
	if !utf8.Valid(data) {
		return errors.New("JSON is not UTF-8")
	}
	data, err := normalize(data)
	if err != nil {
		return err
	}
	if i := bytes.IndexFunc(data, func(r rune) bool { return !isSpace(r) }); i < 0 || data[i] != '{' {
		return errors.New("JSON value is not an object")
	}
	err = json.Unmarshal(data, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// Its message would quote a number whole, however long.
		kind, _, _ := strings.Cut(te.Value, " ")
		return fmt.Errorf("JSON field %s holds a %s", te.Field, kind)
	}
	return err
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// normalize returns data with each object key given as a proto field name
// (max_diff_entries) turned into its JSON name (maxDiffEntries), since the
// JSON mapping accepts both. It refuses an object that gives a key twice,
// by either name (compared without regard to case, as encoding/json
// matches keys), as protobuf's JSON parsers do; JSON nested deeper than
// maxJSONDepth or with an object of more than maxJSONKeys keys; and JSON
// denser in objects and strings in arrays than the budget of a reader
// allows. It returns data itself when no key needs rewriting. It checks
// no more of the syntax than it needs: encoding/json reads the result.
func normalize(data []byte) ([]byte, error) {
	type frame struct {
		object bool
		keys   int // this object's first key in keys
	}
	var (
		stack     [maxJSONDepth]frame
		depth     int
		keys      [][]byte
		out       []byte // the rewritten data, nil until a key is rewritten
		last      int    // data[:last] is in out
		expectKey bool
		units     int // objects, and strings in arrays
	)
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			if depth == maxJSONDepth {
				return nil, fmt.Errorf("JSON nested more than %d deep", maxJSONDepth)
			}
			stack[depth] = frame{object: data[i] == '{', keys: len(keys)}
			depth++
			expectKey = data[i] == '{'
			if expectKey {
				units++
			}
		case '}', ']':
			if depth == 0 {
				return nil, errJSONSyntax
			}
			depth--
			keys = keys[:stack[depth].keys]
			expectKey = false
		case ',':
			expectKey = depth > 0 && stack[depth-1].object
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return nil, errJSONSyntax
			}
			if depth > 0 && !stack[depth-1].object {
				units++
			}
			if expectKey {
				expectKey = false
				key, rewrite, err := jsonName(data[i : end+1])
				if err != nil {
					return nil, err
				}
				first := stack[depth-1].keys
				if len(keys)-first == maxJSONKeys {
					return nil, fmt.Errorf("JSON object of more than %d keys", maxJSONKeys)
				}
				for _, k := range keys[first:] {
					if bytes.EqualFold(k, key) {
						return nil, fmt.Errorf("field %s given twice", quoteBytes(key))
					}
				}
				keys = append(keys, key)
				if rewrite {
					out = append(out, data[last:i]...)
					q, _ := json.Marshal(string(key))
					out = append(out, q...)
					last = end + 1
				}
			}
			i = end
		}
	}
	if depth != 0 {
		return nil, errJSONSyntax
	}
	if units > len(data)/jsonBytesPerMessage+freeMessages {
		return nil, errJSONDense
	}
	if out == nil {
		return data, nil
	}
	return append(out, data[last:]...), nil
}

// stringEnd returns the index of the quote that ends the JSON string
// starting at data[i], or -1.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// jsonName returns the key of the quoted JSON string q, in its JSON name:
// each '_' is dropped and the letter after it made upper case, as protoc
// derives a field's JSON name. rewrite reports whether that changed the
// key.
func jsonName(q []byte) (key []byte, rewrite bool, err error) {
	key = q[1 : len(q)-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		var s string
		if err := json.Unmarshal(q, &s); err != nil {
			return nil, false, err
		}
		key = []byte(s)
	}
	if bytes.IndexByte(key, '_') < 0 {
		return key, false, nil
	}
	out := make([]byte, 0, len(key))
	up := false
	for _, c := range key {
		switch {
		case c == '_':
			up = true
			continue
		case up && 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		}
		up = false
		out = append(out, c)
	}
	return out, true, nil
}

// quoteBytes quotes b as [inputerr.Quote] quotes a string, copying only
// the bytes it quotes.
func quoteBytes(b []byte) string {
	const n = inputerr.MaxQuoted + 4 // room to cut at a rune
	if len(b) <= n {
		return inputerr.Quote(string(b))
	}
	return strconv.Quote(inputerr.Clip(string(b[:n]))) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}
