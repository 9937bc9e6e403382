// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sbtest

import (
	"fmt"
	"testing"
)

// A list remembers its last maxSnapshots served versions only.
func TestSnapshots(t *testing.T) {
	l := newList(findDef("se-4b"))
	for i := range maxSnapshots + 5 {
		l.remember(fmt.Sprint(i), []byte{byte(i)})
	}
	if len(l.snaps) != maxSnapshots || len(l.order) != maxSnapshots {
		t.Fatalf("%d snapshots (%d in order), want %d", len(l.snaps), len(l.order), maxSnapshots)
	}
	if _, ok := l.snaps["4"]; ok {
		t.Error("version 4 is still remembered")
	}
	if _, ok := l.snaps["5"]; !ok {
		t.Error("version 5 is forgotten")
	}
}
