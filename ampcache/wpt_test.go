package ampcache

import (
	"encoding/json"
	"os"
	"testing"
)

// wptCase is one case of the web-platform-tests URL suite
// (testdata/wpt-urltestdata.json); strings in the file are comments.
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Href     string  `json:"href"`
	Protocol string  `json:"protocol"`
	Hostname string  `json:"hostname"`
	Failure  bool    `json:"failure"`
}

// wptCases reads the web-platform-tests URL suite.
func wptCases(tb testing.TB) []wptCase {
	tb.Helper()
	data, err := os.ReadFile("../testdata/wpt-urltestdata.json")
	if err != nil {
		tb.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		tb.Fatal(err)
	}
	var cases []wptCase
	for _, r := range raw {
		var c wptCase
		if json.Unmarshal(r, &c) == nil {
			cases = append(cases, c)
		}
	}
	return cases
}

// wptHosts returns the inputs and the hostnames of the suite, as hostile
// and unusual domains.
func wptHosts(tb testing.TB) []string {
	var hosts []string
	for _, c := range wptCases(tb) {
		hosts = append(hosts, c.Input)
		if c.Hostname != "" {
			hosts = append(hosts, c.Hostname)
		}
	}
	return hosts
}

// TestWPTNoPanic runs every input and hostname of the suite through
// DomainPrefix: none may panic, and every result is a valid prefix.
func TestWPTNoPanic(t *testing.T) {
	for _, h := range wptHosts(t) {
		p, err := DomainPrefix(h)
		if err == nil && !validPrefix.MatchString(p) {
			t.Errorf("DomainPrefix(%q) = %q: not a valid prefix", h, p)
		}
	}
}
