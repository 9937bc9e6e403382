// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lookup

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// modulePath is the module whose version the User-Agent names.
const modulePath = "github.com/urlspec/urlspec"

// productToken is the library's own User-Agent product token,
// "urlspec/<version>": the module's version as the binary was built with
// it, or "devel" when the build does not say (a build inside the module's
// own checkout, or a test).
var productToken = sync.OnceValue(func() string {
	return "urlspec/" + moduleVersion(debug.ReadBuildInfo())
})

// moduleVersion returns the version of modulePath in bi, or "devel": as the
// main module, or as a dependency, replaced or not (a replacement by a
// directory has no version).
func moduleVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "devel"
	}
	v := ""
	if bi.Main.Path == modulePath {
		v = bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath {
			v = d.Version
			if d.Replace != nil {
				v = d.Replace.Version
			}
		}
	}
	if v == "" || v == "(devel)" {
		return "devel"
	}
	return v
}

// userAgent returns the User-Agent of every request: Config.UserAgent, if
// set, before the library's product token, as RFC 9110 section 10.1.5 lists
// products in order of significance.
func userAgent(prefix string) (string, error) {
	prefix = strings.TrimSpace(prefix)
	for i := 0; i < len(prefix); i++ {
		if b := prefix[i]; b < 0x20 || b == 0x7f {
			return "", fmt.Errorf("lookup: Config.UserAgent %s: control character at byte %d", inputerr.Quote(prefix), i)
		}
	}
	if prefix == "" {
		return productToken(), nil
	}
	return prefix + " " + productToken(), nil
}
