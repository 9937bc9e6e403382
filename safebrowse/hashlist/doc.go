// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package hashlist holds the hash lists of the Google Safe Browsing v5 API
// locally and keeps them up to date: it decodes HashList messages (binary
// protobuf, Rice-delta coded), applies full and partial updates, verifies
// their SHA-256 checksums, and answers whether a list holds a hash. See
// https://developers.google.com/safe-browsing/reference/Local.Database and
// the v5 reference, https://developers.google.com/safe-browsing/reference.
package hashlist
