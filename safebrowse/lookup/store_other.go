// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !unix

package lookup

import (
	"fmt"
	"os"
)

// openRegular opens path for reading if it is a regular file, not a
// symlink; the caller checks again once it is open.
func openRegular(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: not a regular file", path, errBadFile)
	}
	return os.Open(path)
}
