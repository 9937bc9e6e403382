// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package ohttp implements Oblivious HTTP (RFC 9458) and Binary HTTP (RFC
// 9292), as Google's Safe Browsing Oblivious HTTP Gateway speaks them.
package ohttp
