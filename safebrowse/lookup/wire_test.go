// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/urlspec/urlspec/safebrowse/internal/v5wire"
)

// cat concatenates byte slices: the tests write protobuf by hand with it.
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// TestSearchReplyHandWritten reads SearchHashesResponse bytes written by
// hand from the proto file's field numbers, not by any encoder.
func TestSearchReplyHandWritten(t *testing.T) {
	h := hashOf("evil.example/")
	g := hashOf("good.example/")
	tests := []struct {
		name    string
		in      []byte
		want    searchReply
		wantErr bool
	}{
		// An empty message: no full hashes, no cache_duration.
		{"empty", nil, searchReply{}, false},
		// cache_duration {seconds: 300}: 0x12 len 3, 0x08 0xac 0x02.
		{"cache duration only", []byte{0x12, 0x03, 0x08, 0xac, 0x02}, searchReply{duration: 300 * time.Second, hasDuration: true}, false},
		// Duration {seconds: 1, nanos: 500000000}.
		{"duration with nanos", []byte{0x12, 0x08, 0x08, 0x01, 0x10, 0x80, 0xca, 0xb5, 0xee, 0x01}, searchReply{duration: 1500 * time.Millisecond, hasDuration: true}, false},
		// One FullHash, MALWARE, with the attribute CANARY unpacked (0x10 0x01).
		{"unpacked attribute", cat([]byte{0x0a, 0x28, 0x0a, 0x20}, h[:], []byte{0x12, 0x04, 0x08, 0x01, 0x10, 0x01}),
			searchReply{hashes: []fullHash{{h, []detail{{Malware, []ThreatAttribute{Canary}}}}}}, false},
		// The attributes packed: 0x12 len 2, CANARY FRAME_ONLY.
		{"packed attributes", cat([]byte{0x0a, 0x2a, 0x0a, 0x20}, h[:], []byte{0x12, 0x06, 0x08, 0x02, 0x12, 0x02, 0x01, 0x02}),
			searchReply{hashes: []fullHash{{h, []detail{{SocialEngineering, []ThreatAttribute{Canary, FrameOnly}}}}}}, false},
		// An unknown threat type (9) drops its detail whole, not the others.
		{"unknown threat type ignored", cat([]byte{0x0a, 0x2a, 0x0a, 0x20}, h[:], []byte{0x12, 0x02, 0x08, 0x09}, []byte{0x12, 0x02, 0x08, 0x03}),
			searchReply{hashes: []fullHash{{h, []detail{{UnwantedSoftware, nil}}}}}, false},
		// An unknown attribute (7) drops its detail whole.
		{"unknown attribute ignored", cat([]byte{0x0a, 0x28, 0x0a, 0x20}, h[:], []byte{0x12, 0x04, 0x08, 0x01, 0x10, 0x07}),
			searchReply{hashes: []fullHash{{h, nil}}}, false},
		// THREAT_TYPE_UNSPECIFIED (a detail without threat_type) is ignored.
		{"unspecified threat type ignored", cat([]byte{0x0a, 0x24, 0x0a, 0x20}, h[:], []byte{0x12, 0x00}),
			searchReply{hashes: []fullHash{{h, nil}}}, false},
		// Unknown fields are skipped (field 15 varint, field 14 bytes).
		{"unknown fields skipped", cat([]byte{0x78, 0x05, 0x72, 0x01, 0xff, 0x0a, 0x22, 0x0a, 0x20}, g[:]),
			searchReply{hashes: []fullHash{{g, nil}}}, false},
		// Two full hashes, then the duration.
		{"two hashes", cat([]byte{0x0a, 0x26, 0x0a, 0x20}, h[:], []byte{0x12, 0x02, 0x08, 0x04}, []byte{0x0a, 0x22, 0x0a, 0x20}, g[:], []byte{0x12, 0x02, 0x08, 0x3c}),
			searchReply{hashes: []fullHash{{h, []detail{{PotentiallyHarmfulApplication, nil}}}, {g, nil}}, duration: 60 * time.Second, hasDuration: true}, false},
		// A full hash of 4 bytes is corrupt: full hashes are 32.
		{"short full hash", []byte{0x0a, 0x06, 0x0a, 0x04, 1, 2, 3, 4}, searchReply{}, true},
		// A FullHash without full_hash is corrupt.
		{"no full hash", []byte{0x0a, 0x02, 0x12, 0x00}, searchReply{}, true},
		// A truncated message is corrupt.
		{"truncated", []byte{0x0a, 0x28, 0x0a, 0x20, 1, 2}, searchReply{}, true},
		// A negative duration is corrupt.
		{"negative duration", []byte{0x12, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, searchReply{}, true},
		// full_hashes with a varint wire type is corrupt.
		{"wrong wire type", []byte{0x08, 0x01}, searchReply{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseSearchReply(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				if !errors.Is(err, ErrCorruptReply) {
					t.Errorf("err = %v, want ErrCorruptReply", err)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestSearchReplyMerged: what a reply repeats is kept once, so that a
// reply costs what it weighs and a verdict holds each threat once.
func TestSearchReplyMerged(t *testing.T) {
	h := hashOf("evil.example/")
	g := hashOf("good.example/")
	fh := func(h [32]byte, details ...[]byte) []byte {
		return cat([]byte{0x0a}, protowire.AppendVarint(nil, uint64(len(fullHashMsg(h, details...)))), fullHashMsg(h, details...))
	}
	tests := []struct {
		name string
		in   []byte
		want []fullHash
	}{
		// The same full hash twice is one, with the details of both.
		{"same full hash", cat(fh(h, detailMsg(Malware)), fh(g), fh(h, detailMsg(SocialEngineering))),
			[]fullHash{{h, []detail{{Malware, nil}, {SocialEngineering, nil}}}, {g, nil}}},
		// The same detail twice is one.
		{"same detail", cat(fh(h, detailMsg(Malware, Canary), detailMsg(Malware, Canary)), fh(h, detailMsg(Malware, Canary))),
			[]fullHash{{h, []detail{{Malware, []ThreatAttribute{Canary}}}}}},
		// An attribute repeated in a detail is kept once, in the server's order.
		{"same attribute", fh(h, detailMsg(Malware, FrameOnly, Canary, FrameOnly, Canary)),
			[]fullHash{{h, []detail{{Malware, []ThreatAttribute{FrameOnly, Canary}}}}}},
		// The same set of attributes in another order is the same detail.
		{"same set", fh(h, detailMsg(Malware, Canary, FrameOnly), detailMsg(Malware, FrameOnly, Canary)),
			[]fullHash{{h, []detail{{Malware, []ThreatAttribute{Canary, FrameOnly}}}}}},
		// Another type or another set is another detail.
		{"distinct", fh(h, detailMsg(Malware), detailMsg(Malware, Canary), detailMsg(UnwantedSoftware)),
			[]fullHash{{h, []detail{{Malware, nil}, {Malware, []ThreatAttribute{Canary}}, {UnwantedSoftware, nil}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseSearchReply(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.hashes, tt.want) {
				t.Errorf("got %+v\nwant %+v", got.hashes, tt.want)
			}
		})
	}
}

// TestDurationCapped: a cache_duration too long for time.Duration is
// capped, never wrapped negative.
func TestDurationCapped(t *testing.T) {
	r, err := parseSearchReply([]byte{0x12, 0x0a, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	if err != nil || r.duration != v5wire.MaxDuration || !r.hasDuration {
		t.Errorf("got %v, %v; want %v", r.duration, err, v5wire.MaxDuration)
	}
}

// TestListHeader reads the fields of a HashList that the client reads
// itself, from bytes written by hand.
func TestListHeader(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    listHeader
		wantErr bool
	}{
		// name "se-4b", partial_update true, minimum_wait_duration 1800 s,
		// sha256_checksum of 1 byte.
		{"all fields", []byte{0x0a, 0x05, 's', 'e', '-', '4', 'b', 0x18, 0x01, 0x32, 0x03, 0x08, 0x88, 0x0e, 0x3a, 0x01, 0x00},
			listHeader{name: "se-4b", partial: true, minWait: 1800 * time.Second}, false},
		// No minimum wait: due again at once.
		{"no minimum wait", []byte{0x12, 0x02, 'v', '1'}, listHeader{}, false},
		// A truncated name is corrupt.
		{"truncated", []byte{0x0a, 0x05, 's'}, listHeader{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseListHeader(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("got %+v, %v; want %+v, wantErr %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestBatchSplit splits a BatchGetHashListsResponse written by hand.
func TestBatchSplit(t *testing.T) {
	in := []byte{0x0a, 0x02, 0x12, 0x00, 0x0a, 0x00, 0x10, 0x01}
	got, err := parseBatch(in)
	if err != nil || len(got) != 2 || len(got[0]) != 2 || len(got[1]) != 0 {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := parseBatch([]byte{0x0a, 0x05, 0x00}); !errors.Is(err, ErrCorruptReply) {
		t.Errorf("truncated batch: err = %v", err)
	}
}

// FuzzSearchReply: no reply makes the parser panic, and every full hash it
// accepts is 32 bytes with valid details only.
func FuzzSearchReply(f *testing.F) {
	h := hashOf("evil.example/")
	for _, seed := range [][]byte{
		nil,
		{0x12, 0x03, 0x08, 0xac, 0x02},
		cat([]byte{0x0a, 0x2a, 0x0a, 0x20}, h[:], []byte{0x12, 0x06, 0x08, 0x02, 0x12, 0x02, 0x01, 0x02}),
		cat([]byte{0x0a, 0x26, 0x0a, 0x20}, h[:], []byte{0x12, 0x02, 0x08, 0x09}, []byte{0x12, 0x02, 0x08, 0x03}),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseSearchReply(b)
		if err != nil {
			if !errors.Is(err, ErrCorruptReply) {
				t.Fatalf("error %v is not ErrCorruptReply", err)
			}
			return
		}
		if r.duration < 0 {
			t.Fatalf("negative duration %v", r.duration)
		}
		for _, fh := range r.hashes {
			for _, d := range fh.details {
				if !d.typ.Valid() {
					t.Fatalf("invalid threat type %v kept", d.typ)
				}
				for _, a := range d.attrs {
					if !a.Valid() {
						t.Fatalf("invalid attribute %v kept", a)
					}
				}
			}
		}
	})
}

// FuzzBatchReply: no batch or list reply makes the client's parsers panic.
func FuzzBatchReply(f *testing.F) {
	f.Add([]byte{0x0a, 0x02, 0x12, 0x00, 0x0a, 0x00})
	f.Add([]byte{0x0a, 0x11, 0x0a, 0x05, 's', 'e', '-', '4', 'b', 0x18, 0x01, 0x32, 0x03, 0x08, 0x88, 0x0e, 0x3a, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		lists, err := parseBatch(b)
		if err != nil {
			return
		}
		due := []*listState{{name: "se-4b"}, {name: "mw-4b"}}
		matchLists(due, lists, testKey)
		for _, l := range lists {
			parseListHeader(l)
		}
		v5wire.ParseStatusMessage(b)
	})
}
