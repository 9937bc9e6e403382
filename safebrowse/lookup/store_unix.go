// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package lookup

import (
	"os"
	"syscall"
)

// openRegular opens path for reading without following a symlink in its
// last element (O_NOFOLLOW) and without blocking on a FIFO (O_NONBLOCK);
// the caller checks that it is a regular file.
func openRegular(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
