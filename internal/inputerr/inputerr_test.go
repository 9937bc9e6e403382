// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package inputerr

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

var errSentinel = errors.New("pkg: bad thing")

func TestError(t *testing.T) {
	tests := []struct {
		name, input, detail string
		cause               error
		want                string
	}{
		// The input is quoted.
		{"quoted", "xn--99999a", "", nil, `pkg: bad thing in "xn--99999a"`},
		// A detail follows a colon.
		{"detail", "a b", "forbidden code point 0x20", nil, `pkg: bad thing in "a b": forbidden code point 0x20`},
		// Control bytes and invalid UTF-8 are escaped by the quoting.
		{"escaped", "\x00\xff", "", nil, `pkg: bad thing in "\x00\xff"`},
		// A cause's message ends the message.
		{"cause", "https://a.example/", "", context.Canceled, `pkg: bad thing in "https://a.example/": context canceled`},
		// Exactly 100 bytes are quoted whole.
		{"100 bytes", strings.Repeat("a", 100), "", nil, `pkg: bad thing in "` + strings.Repeat("a", 100) + `"`},
		// 101 bytes: the first 100 are quoted, then the length.
		{"101 bytes", strings.Repeat("a", 101), "", nil, `pkg: bad thing in "` + strings.Repeat("a", 100) + `"... (101 bytes)`},
		// A rune across byte 100 is left out whole, not quoted in part.
		{"rune at the cut", strings.Repeat("a", 99) + "ü" + "b", "", nil, `pkg: bad thing in "` + strings.Repeat("a", 99) + `"... (102 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.cause != nil {
				err = Wrap(errSentinel, tt.input, tt.cause)
			} else {
				err = New(errSentinel, tt.input, tt.detail)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() = %q; want %q", got, tt.want)
			}
			if !errors.Is(err, errSentinel) {
				t.Errorf("errors.Is(%v, errSentinel) = false", err)
			}
		})
	}
}

// A 10 MB input gives a message of at most 512 bytes, and the error keeps
// no more than 100 bytes of it (DomainPrefix of 10 MB once allocated ~255 MB
// in Error()).
func TestErrorHugeInput(t *testing.T) {
	huge := strings.Repeat("\x00", 10<<20)
	err := New(errSentinel, huge, strings.Repeat("d", 1000))
	msg := err.Error()
	if len(msg) > MaxMessage {
		t.Errorf("len(Error()) = %d; want at most %d", len(msg), MaxMessage)
	}
	if !strings.Contains(msg, "(10485760 bytes)") {
		t.Errorf("Error() = %q; want the input's length", msg)
	}
	if e := err.(*Error); len(e.input) > MaxQuoted+16 {
		t.Errorf("the error keeps %d bytes of the input", len(e.input))
	}
	long := Wrap(errSentinel, "x", errors.New(strings.Repeat("é", 600)))
	if got := long.Error(); len(got) > MaxMessage || !strings.HasSuffix(got, "é...") {
		t.Errorf("a long cause gives %d bytes ending %q", len(got), got[len(got)-8:])
	}
}

// errors.Is finds the cause as well as the errSentinel, through fmt's %w too,
// as it finds a url.Error's.
func TestWrapUnwrap(t *testing.T) {
	err := fmt.Errorf("outer: %w", Wrap(errSentinel, "in", context.Canceled))
	if !errors.Is(err, errSentinel) || !errors.Is(err, context.Canceled) {
		t.Errorf("errors.Is: errSentinel %v, cause %v; want both", errors.Is(err, errSentinel), errors.Is(err, context.Canceled))
	}
	if errors.Is(New(errSentinel, "in", ""), context.Canceled) {
		t.Error("an error without a cause matches context.Canceled")
	}
}

func TestNewClonesInput(t *testing.T) {
	b := []byte("abc")
	err := New(errors.New("x"), string(b), "")
	b[0] = 'z'
	if got := err.Error(); got != `x in "abc"` {
		t.Errorf("Error() = %q after the caller's bytes changed", got)
	}
}

func TestField(t *testing.T) {
	err := Field(errSentinel, "cachetest", "WithRegistry", "nil registry")
	if got, want := err.Error(), "cachetest: WithRegistry: nil registry"; got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
	if !errors.Is(err, errSentinel) {
		t.Error("errors.Is(Field(errSentinel, ...), errSentinel) = false")
	}
}

// TestInField: an input from a configuration field names the field after the
// package, quotes the input in part when it is long, and keeps the cause.
func TestInField(t *testing.T) {
	cause := errors.New("pkg: the cause")
	tests := []struct {
		name string
		err  error
		want string
	}{
		// A short input is quoted whole, with the detail and the cause.
		{"short", InField(errSentinel, "Config.Origins[2]", "ftp://x", "bad scheme", cause),
			`pkg: Config.Origins[2]: bad thing "ftp://x": bad scheme: pkg: the cause`},
		// A long input is quoted up to MaxQuoted bytes, then its length.
		{"long", InField(errSentinel, "Config.Origins[0]", strings.Repeat("a", 300), "", nil),
			`pkg: Config.Origins[0]: bad thing "` + strings.Repeat("a", MaxQuoted) + `"... (300 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q; want %q", got, tt.want)
			}
			if !errors.Is(tt.err, errSentinel) {
				t.Error("errors.Is(err, errSentinel) = false")
			}
		})
	}
	if err := InField(errSentinel, "F", "x", "", cause); !errors.Is(err, cause) {
		t.Error("errors.Is(err, cause) = false")
	}
}

func TestQuote(t *testing.T) {
	long := strings.Repeat("a", 99) + "é" // the 100th byte starts a rune
	tests := []struct{ in, want string }{
		// A short input is quoted whole.
		{"se-4b", `"se-4b"`},
		// A control character is escaped.
		{"a\nb", `"a\nb"`},
		// A long input is cut at a rune boundary and its length given.
		{long, `"` + strings.Repeat("a", 99) + `"... (101 bytes)`},
		// The empty input.
		{"", `""`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Quote(tt.in); got != tt.want {
				t.Errorf("Quote(%q) = %s; want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	tests := []struct{ in, want string }{
		// A short input is kept whole.
		{"se-4b", "se-4b"},
		// A long input is cut to MaxQuoted bytes.
		{strings.Repeat("a", 150), strings.Repeat("a", MaxQuoted)},
		// A rune across the cut is dropped whole.
		{strings.Repeat("a", 99) + "é", strings.Repeat("a", 99)},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := Clip(tt.in); got != tt.want {
				t.Errorf("Clip(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestNewBytes: NewBytes says what New says of the same input as a string.
func TestNewBytes(t *testing.T) {
	for _, in := range []string{"", "short", strings.Repeat("a", 99) + "é", strings.Repeat("b", 5000)} {
		want := New(errSentinel, in, "d").Error()
		if got := NewBytes(errSentinel, []byte(in), "d").Error(); got != want {
			t.Errorf("NewBytes(%d bytes) = %s; want %s", len(in), got, want)
		}
	}
}
