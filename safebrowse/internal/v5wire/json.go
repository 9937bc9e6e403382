// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v5wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// This file is Google's JSON mapping of the messages (the proto3 JSON
// mapping), as Google's servers send it with alt=json.

// jbytes is a bytes field: written as standard base64 with padding (the
// default of encoding/json), read in standard or URL-safe base64, padded
// or not.
type jbytes []byte

func (b *jbytes) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	v, err := DecodeBytes(s)
	if err != nil {
		return fmt.Errorf("bytes %s are not base64", inputerr.Quote(s))
	}
	*b = v
	return nil
}

// DecodeBytes decodes a bytes value as Google's APIs read one, in a query
// parameter or in JSON: standard or URL-safe base64, padded or not.
func DecodeBytes(s string) ([]byte, error) {
	t := strings.TrimRight(s, "=")
	if strings.ContainsAny(t, "-_") {
		return base64.RawURLEncoding.DecodeString(t)
	}
	return base64.RawStdEncoding.DecodeString(t)
}

// jint is a 64-bit integer field, written as a decimal string; jint32 is
// a 32-bit one, written as a number. Both are read from a number or a
// string, and hold the decimal text.
type (
	jint   string
	jint32 string
)

func (v jint32) MarshalJSON() ([]byte, error) { return []byte(v), nil }

func (v *jint) UnmarshalJSON(data []byte) error   { return readNumber((*string)(v), data) }
func (v *jint32) UnmarshalJSON(data []byte) error { return readNumber((*string)(v), data) }

func readNumber(dst *string, data []byte) error {
	s := string(data)
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
	}
	if _, err := strconv.ParseInt(s, 10, 64); err != nil {
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return fmt.Errorf("%s is not an integer", inputerr.Quote(s))
		}
	}
	*dst = s
	return nil
}

func (v jint) uint64() (uint64, error) {
	if v == "" {
		return 0, nil
	}
	return strconv.ParseUint(string(v), 10, 64)
}

func (v jint32) int32() (int32, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(string(v), 10, 32)
	return int32(n), err
}

func fmtUint(v uint64) jint { return jint(strconv.FormatUint(v, 10)) }

func fmtInt32(v int32) jint32 {
	if v == 0 {
		return ""
	}
	return jint32(strconv.Itoa(int(v)))
}

// jenum is an enum field: written by name, read by name or number.
type jenum string

func (e *jenum) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*e = jenum(s)
		return nil
	}
	return readNumber((*string)(e), data)
}

func toEnums[E ~int32](names []string, vs []jenum) ([]E, error) {
	var out []E
	for _, v := range vs {
		n, ok := enumValue(names, string(v))
		if !ok {
			return nil, fmt.Errorf("unknown enum value %s", inputerr.Quote(string(v)))
		}
		out = append(out, E(n))
	}
	return out, nil
}

func fromEnums[E ~int32](names []string, vs []E) []jenum {
	var out []jenum
	for _, v := range vs {
		out = append(out, jenum(enumName(names, int32(v))))
	}
	return out
}

// FormatDuration returns d as the JSON mapping writes a Duration: seconds
// with an "s" suffix, and 3, 6 or 9 digits of fraction when there is one:
// "300s", "1.500s", "-0.000000001s".
func FormatDuration(d time.Duration) string {
	sign := ""
	sec, nanos := int64(d/time.Second), int64(d%time.Second)
	if nanos < 0 || sec < 0 {
		sign, sec, nanos = "-", -sec, -nanos
	}
	s := sign + strconv.FormatInt(sec, 10)
	if nanos != 0 {
		f := fmt.Sprintf("%09d", nanos)
		switch {
		case nanos%1e6 == 0:
			f = f[:3]
		case nanos%1e3 == 0:
			f = f[:6]
		}
		s += "." + f
	}
	return s + "s"
}

// ParseJSONDuration reads a Duration as the JSON mapping writes one
// ("1.5s"), under the policy of [ParseDuration].
func ParseJSONDuration(s string) (time.Duration, error) {
	t, ok := strings.CutSuffix(s, "s")
	if !ok || t == "" || t[0] == '+' {
		return 0, fmt.Errorf("duration %s has no seconds", inputerr.Quote(s))
	}
	neg := t[0] == '-'
	if neg {
		t = t[1:]
	}
	whole, frac, hasFrac := strings.Cut(t, ".")
	if whole == "" || (hasFrac && (frac == "" || len(frac) > 9)) || strings.Trim(whole+frac, "0123456789") != "" {
		return 0, fmt.Errorf("duration %s is not seconds", inputerr.Quote(s))
	}
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("duration %s is not seconds", inputerr.Quote(s))
	}
	if err != nil {
		sec = maxSeconds + 1
	}
	var nanos int64
	if hasFrac {
		n, _ := strconv.ParseInt((frac + "00000000")[:9], 10, 64)
		nanos = n
	}
	if neg && (sec != 0 || nanos != 0) {
		return 0, fmt.Errorf("duration %s out of range", inputerr.Quote(s))
	}
	return durationOf(sec, nanos)
}

type jsonRice struct {
	FirstValue           json.RawMessage `json:"firstValue,omitempty"`
	FirstValueHi         jint            `json:"firstValueHi,omitempty"`
	FirstValueLo         jint            `json:"firstValueLo,omitempty"`
	FirstValueFirstPart  jint            `json:"firstValueFirstPart,omitempty"`
	FirstValueSecondPart jint            `json:"firstValueSecondPart,omitempty"`
	FirstValueThirdPart  jint            `json:"firstValueThirdPart,omitempty"`
	FirstValueFourthPart jint            `json:"firstValueFourthPart,omitempty"`
	RiceParameter        jint32          `json:"riceParameter,omitempty"`
	EntriesCount         jint32          `json:"entriesCount,omitempty"`
	EncodedData          jbytes          `json:"encodedData,omitempty"`
}

func riceToJSON(s *Rice, w int) *jsonRice {
	j := &jsonRice{RiceParameter: fmtInt32(s.K), EntriesCount: fmtInt32(s.Count), EncodedData: s.Data}
	f := s.First
	switch w {
	case 4:
		if f[3] != 0 {
			j.FirstValue = json.RawMessage(strconv.FormatUint(f[3], 10))
		}
	case 8:
		if f[3] != 0 {
			j.FirstValue = json.RawMessage(strconv.Quote(strconv.FormatUint(f[3], 10)))
		}
	case 16:
		j.FirstValueHi, j.FirstValueLo = nz(f[2]), nz(f[3])
	default:
		j.FirstValueFirstPart, j.FirstValueSecondPart = nz(f[0]), nz(f[1])
		j.FirstValueThirdPart, j.FirstValueFourthPart = nz(f[2]), nz(f[3])
	}
	return j
}

func nz(v uint64) jint {
	if v == 0 {
		return ""
	}
	return fmtUint(v)
}

func riceFromJSON(j *jsonRice, w int) (Rice, error) {
	var s Rice
	var err error
	if s.K, err = j.RiceParameter.int32(); err != nil {
		return s, errors.New("riceParameter is not an int32")
	}
	if s.Count, err = j.EntriesCount.int32(); err != nil {
		return s, errors.New("entriesCount is not an int32")
	}
	s.Data = j.EncodedData
	var parts []jint
	switch w {
	case 4, 8:
		var v jint
		if len(j.FirstValue) > 0 {
			if err := v.UnmarshalJSON(j.FirstValue); err != nil {
				return s, fmt.Errorf("firstValue: %w", err)
			}
		}
		parts = []jint{v}
	case 16:
		parts = []jint{j.FirstValueHi, j.FirstValueLo}
	default:
		parts = []jint{j.FirstValueFirstPart, j.FirstValueSecondPart, j.FirstValueThirdPart, j.FirstValueFourthPart}
	}
	for i, p := range parts {
		v, err := p.uint64()
		if err != nil {
			return s, fmt.Errorf("first value %s is not a uint64", inputerr.Quote(string(p)))
		}
		s.First[4-len(parts)+i] = v
	}
	if w == 4 && s.First[3] > 1<<32-1 {
		return s, errors.New("firstValue overflows 32 bits")
	}
	return s, nil
}

type jsonMetadata struct {
	ThreatTypes     []jenum `json:"threatTypes,omitempty"`
	LikelySafeTypes []jenum `json:"likelySafeTypes,omitempty"`
	Description     string  `json:"description,omitempty"`
	HashLength      jenum   `json:"hashLength,omitempty"`
}

type jsonHashList struct {
	Name                    string        `json:"name,omitempty"`
	Version                 jbytes        `json:"version,omitempty"`
	PartialUpdate           bool          `json:"partialUpdate,omitempty"`
	AdditionsFourBytes      *jsonRice     `json:"additionsFourBytes,omitempty"`
	AdditionsEightBytes     *jsonRice     `json:"additionsEightBytes,omitempty"`
	AdditionsSixteenBytes   *jsonRice     `json:"additionsSixteenBytes,omitempty"`
	AdditionsThirtyTwoBytes *jsonRice     `json:"additionsThirtyTwoBytes,omitempty"`
	CompressedRemovals      *jsonRice     `json:"compressedRemovals,omitempty"`
	MinimumWaitDuration     string        `json:"minimumWaitDuration,omitempty"`
	Sha256Checksum          jbytes        `json:"sha256Checksum,omitempty"`
	Metadata                *jsonMetadata `json:"metadata,omitempty"`
}

func (m *HashList) toJSON() *jsonHashList {
	j := &jsonHashList{Name: m.Name, Version: m.Version, PartialUpdate: m.Partial, Sha256Checksum: m.Checksum}
	if m.AddWidth != 0 {
		r := riceToJSON(&m.Additions, m.AddWidth)
		switch m.AddWidth {
		case 4:
			j.AdditionsFourBytes = r
		case 8:
			j.AdditionsEightBytes = r
		case 16:
			j.AdditionsSixteenBytes = r
		default:
			j.AdditionsThirtyTwoBytes = r
		}
	}
	if m.HasRemovals {
		j.CompressedRemovals = riceToJSON(&m.Removals, 4)
	}
	if m.MinimumWait != 0 {
		j.MinimumWaitDuration = FormatDuration(m.MinimumWait)
	}
	if md := m.Metadata; md != nil {
		j.Metadata = &jsonMetadata{
			ThreatTypes:     fromEnums(threatTypeNames, md.ThreatTypes),
			LikelySafeTypes: fromEnums(likelySafeNames, md.LikelySafeTypes),
			Description:     md.Description,
		}
		if md.HashLength != 0 {
			j.Metadata.HashLength = jenum(enumName(hashLengthNames, int32(md.HashLength)))
		}
	}
	return j
}

func (j *jsonHashList) fromJSON() (HashList, error) {
	m := HashList{Name: j.Name, Version: j.Version, Partial: j.PartialUpdate}
	if len(j.Sha256Checksum) > 0 {
		m.Checksum = j.Sha256Checksum
	}
	for _, a := range []struct {
		r *jsonRice
		w int
	}{{j.AdditionsFourBytes, 4}, {j.AdditionsEightBytes, 8}, {j.AdditionsSixteenBytes, 16}, {j.AdditionsThirtyTwoBytes, 32}} {
		if a.r == nil {
			continue
		}
		if m.AddWidth != 0 {
			return m, errors.New("two fields of the additions oneof")
		}
		s, err := riceFromJSON(a.r, a.w)
		if err != nil {
			return m, fmt.Errorf("additions: %w", err)
		}
		m.AddWidth, m.Additions = a.w, s
	}
	if j.CompressedRemovals != nil {
		s, err := riceFromJSON(j.CompressedRemovals, 4)
		if err != nil {
			return m, fmt.Errorf("compressedRemovals: %w", err)
		}
		m.HasRemovals, m.Removals = true, s
	}
	if j.MinimumWaitDuration != "" {
		d, err := ParseJSONDuration(j.MinimumWaitDuration)
		if err != nil {
			return m, fmt.Errorf("minimumWaitDuration: %w", err)
		}
		m.MinimumWait = d
	}
	if md := j.Metadata; md != nil {
		m.Metadata = &Metadata{Description: md.Description}
		var err error
		if m.Metadata.ThreatTypes, err = toEnums[ThreatType](threatTypeNames, md.ThreatTypes); err != nil {
			return m, fmt.Errorf("metadata: %w", err)
		}
		if m.Metadata.LikelySafeTypes, err = toEnums[LikelySafeType](likelySafeNames, md.LikelySafeTypes); err != nil {
			return m, fmt.Errorf("metadata: %w", err)
		}
		if md.HashLength != "" {
			v, ok := enumValue(hashLengthNames, string(md.HashLength))
			if !ok {
				return m, fmt.Errorf("metadata: unknown hashLength %s", inputerr.Quote(string(md.HashLength)))
			}
			m.Metadata.HashLength = HashLength(v)
		}
	}
	return m, nil
}

// MarshalJSON returns m in Google's JSON mapping.
func (m *HashList) MarshalJSON() ([]byte, error) { return json.Marshal(m.toJSON()) }

// UnmarshalJSON reads m from Google's JSON mapping.
func (m *HashList) UnmarshalJSON(data []byte) error {
	var j jsonHashList
	if err := strictUnmarshal(data, &j); err != nil {
		return err
	}
	out, err := j.fromJSON()
	if err != nil {
		return err
	}
	*m = out
	return nil
}

// strictUnmarshal decodes one JSON value, with nothing after it.
func strictUnmarshal(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}

type jsonBatch struct {
	HashLists []*HashList `json:"hashLists,omitempty"`
}

// MarshalBatchJSON returns a BatchGetHashListsResponse of lists in
// Google's JSON mapping.
func MarshalBatchJSON(lists []HashList) ([]byte, error) {
	var j jsonBatch
	for i := range lists {
		j.HashLists = append(j.HashLists, &lists[i])
	}
	return json.Marshal(j)
}

// UnmarshalBatchJSON reads a BatchGetHashListsResponse in Google's JSON
// mapping.
func UnmarshalBatchJSON(data []byte) ([]HashList, error) {
	var j jsonBatch
	if err := strictUnmarshal(data, &j); err != nil {
		return nil, err
	}
	out := make([]HashList, len(j.HashLists))
	for i, l := range j.HashLists {
		if l != nil {
			out[i] = *l
		}
	}
	return out, nil
}

type jsonListHashLists struct {
	HashLists     []*HashList `json:"hashLists,omitempty"`
	NextPageToken string      `json:"nextPageToken,omitempty"`
}

// MarshalJSON returns m in Google's JSON mapping.
func (m *ListHashListsResponse) MarshalJSON() ([]byte, error) {
	j := jsonListHashLists{NextPageToken: m.NextPageToken}
	for i := range m.HashLists {
		j.HashLists = append(j.HashLists, &m.HashLists[i])
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads m from Google's JSON mapping.
func (m *ListHashListsResponse) UnmarshalJSON(data []byte) error {
	var j jsonListHashLists
	if err := strictUnmarshal(data, &j); err != nil {
		return err
	}
	out := ListHashListsResponse{NextPageToken: j.NextPageToken}
	for _, l := range j.HashLists {
		if l != nil {
			out.HashLists = append(out.HashLists, *l)
		}
	}
	*m = out
	return nil
}

type jsonDetail struct {
	ThreatType jenum   `json:"threatType,omitempty"`
	Attributes []jenum `json:"attributes,omitempty"`
}

type jsonFullHash struct {
	FullHash        jbytes       `json:"fullHash,omitempty"`
	FullHashDetails []jsonDetail `json:"fullHashDetails,omitempty"`
}

type jsonSearch struct {
	FullHashes    []jsonFullHash `json:"fullHashes,omitempty"`
	CacheDuration *string        `json:"cacheDuration,omitempty"`
}

// MarshalJSON returns m in Google's JSON mapping.
func (m *SearchHashesResponse) MarshalJSON() ([]byte, error) {
	var j jsonSearch
	for _, h := range m.FullHashes {
		fh := jsonFullHash{FullHash: h.Hash[:]}
		for _, d := range h.Details {
			jd := jsonDetail{Attributes: fromEnums(threatAttributeNames, d.Attributes)}
			if d.ThreatType != 0 {
				jd.ThreatType = jenum(enumName(threatTypeNames, int32(d.ThreatType)))
			}
			fh.FullHashDetails = append(fh.FullHashDetails, jd)
		}
		j.FullHashes = append(j.FullHashes, fh)
	}
	j.CacheDuration = jsonCacheDuration(m.CacheDuration, m.HasCacheDuration)
	return json.Marshal(j)
}

// UnmarshalJSON reads m from Google's JSON mapping, under the policy of
// [ParseSearchHashesResponse].
func (m *SearchHashesResponse) UnmarshalJSON(data []byte) error {
	var j jsonSearch
	if err := strictUnmarshal(data, &j); err != nil {
		return err
	}
	var out SearchHashesResponse
	for _, fh := range j.FullHashes {
		var h FullHash
		if len(fh.FullHash) == 0 {
			return errNoHash
		}
		if len(fh.FullHash) != len(h.Hash) {
			return fmt.Errorf("full hash of %d bytes, want 32", len(fh.FullHash))
		}
		copy(h.Hash[:], fh.FullHash)
		for _, jd := range fh.FullHashDetails {
			var d FullHashDetail
			if jd.ThreatType != "" {
				v, ok := enumValue(threatTypeNames, string(jd.ThreatType))
				if !ok {
					v = -1 // a name this package does not know: dropped by Known
				}
				d.ThreatType = ThreatType(v)
			}
			for _, a := range jd.Attributes {
				v, ok := enumValue(threatAttributeNames, string(a))
				if !ok {
					v = -1
				}
				d.Attributes = append(d.Attributes, ThreatAttribute(v))
			}
			h.Details = append(h.Details, d)
		}
		out.FullHashes = append(out.FullHashes, h)
	}
	var err error
	if out.CacheDuration, out.HasCacheDuration, err = parseJSONCacheDuration(j.CacheDuration); err != nil {
		return err
	}
	*m = out
	return nil
}

type jsonThreatURL struct {
	URL         string  `json:"url,omitempty"`
	ThreatTypes []jenum `json:"threatTypes,omitempty"`
}

type jsonSearchUrls struct {
	Threats       []jsonThreatURL `json:"threats,omitempty"`
	CacheDuration *string         `json:"cacheDuration,omitempty"`
}

// MarshalJSON returns m in Google's JSON mapping:
// {"threats": [{"url", "threatTypes"}], "cacheDuration"}.
func (m *SearchUrlsResponse) MarshalJSON() ([]byte, error) {
	var j jsonSearchUrls
	for _, t := range m.Threats {
		j.Threats = append(j.Threats, jsonThreatURL{URL: t.URL, ThreatTypes: fromEnums(threatTypeNames, t.ThreatTypes)})
	}
	j.CacheDuration = jsonCacheDuration(m.CacheDuration, m.HasCacheDuration)
	return json.Marshal(j)
}

// UnmarshalJSON reads m from Google's JSON mapping.
func (m *SearchUrlsResponse) UnmarshalJSON(data []byte) error {
	var j jsonSearchUrls
	if err := strictUnmarshal(data, &j); err != nil {
		return err
	}
	var out SearchUrlsResponse
	for _, t := range j.Threats {
		types, err := toEnums[ThreatType](threatTypeNames, t.ThreatTypes)
		if err != nil {
			return fmt.Errorf("threatTypes: %w", err)
		}
		out.Threats = append(out.Threats, ThreatURL{URL: t.URL, ThreatTypes: types})
	}
	var err error
	if out.CacheDuration, out.HasCacheDuration, err = parseJSONCacheDuration(j.CacheDuration); err != nil {
		return err
	}
	*m = out
	return nil
}

// jsonCacheDuration returns the cacheDuration of a search reply in the
// JSON mapping: d when has is set or d is not zero, else nil (left out).
func jsonCacheDuration(d time.Duration, has bool) *string {
	if !has && d == 0 {
		return nil
	}
	s := FormatDuration(d)
	return &s
}

// parseJSONCacheDuration reads the cacheDuration of a search reply in the
// JSON mapping, reporting whether it was given.
func parseJSONCacheDuration(s *string) (d time.Duration, has bool, err error) {
	if s == nil {
		return 0, false, nil
	}
	if d, err = ParseJSONDuration(*s); err != nil {
		return 0, false, fmt.Errorf("cacheDuration: %w", err)
	}
	return d, true, nil
}
