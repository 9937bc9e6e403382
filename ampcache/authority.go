package ampcache

// hasPrefixFold reports whether s begins with the lowercase ASCII prefix,
// ignoring ASCII case in s.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
}

// equalFold reports whether s equals the lowercase ASCII string t,
// ignoring ASCII case in s.
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != t[i] {
			return false
		}
	}
	return true
}
