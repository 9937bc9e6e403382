package inputerr

import (
	"errors"
	"testing"
)

func TestError(t *testing.T) {
	sentinel := errors.New("pkg: bad thing")
	tests := []struct {
		input, detail, want string
	}{
		// The input is quoted.
		{"xn--99999a", "", `pkg: bad thing in "xn--99999a"`},
		// A detail follows a colon.
		{"a b", "forbidden code point 0x20", `pkg: bad thing in "a b": forbidden code point 0x20`},
		// Control bytes and invalid UTF-8 are escaped by the quoting.
		{"\x00\xff", "", `pkg: bad thing in "\x00\xff"`},
	}
	for _, tt := range tests {
		err := New(sentinel, tt.input, tt.detail)
		if got := err.Error(); got != tt.want {
			t.Errorf("Error() = %q; want %q", got, tt.want)
		}
		if !errors.Is(err, sentinel) {
			t.Errorf("errors.Is(%v, sentinel) = false", err)
		}
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
