// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package mirror

import "time"

// SetMinWaitForTest lowers the least minimum wait of list replies, so
// that a test's clients may update again at once.
func (m *Mirror) SetMinWaitForTest(d time.Duration) { m.minWait = d }
