package ampcache

import "testing"

// TestIndexControl checks the word-at-a-time scan against a byte loop, for
// every byte value at every position of a 20-byte string.
func TestIndexControl(t *testing.T) {
	slow := func(s string) int {
		for i := 0; i < len(s); i++ {
			if s[i] < ' ' || s[i] == 0x7F {
				return i
			}
		}
		return -1
	}
	base := []byte("https://example.com/")
	for pos := range base {
		for c := 0; c < 256; c++ {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			if got, want := indexControl(string(b)), slow(string(b)); got != want {
				t.Fatalf("indexControl(%q) = %d; want %d", b, got, want)
			}
		}
	}
}

func BenchmarkIndexControl(b *testing.B) {
	s := "https://www.example.com/a/b.html?q=1"
	b.Run("word", func(b *testing.B) {
		for b.Loop() {
			indexControl(s)
		}
	})
	b.Run("byte", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < len(s); i++ {
				if s[i] < ' ' || s[i] == 0x7F {
					break
				}
			}
		}
	})
}
