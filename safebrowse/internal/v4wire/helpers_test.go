// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import (
	"bytes"
	"reflect"
	"testing"
)

// cat concatenates the parts of a message written by hand.
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// rep returns n bytes c.
func rep(c byte, n int) []byte { return bytes.Repeat([]byte{c}, n) }

// appendLen appends n as a varint, a test-side writer of lengths.
func appendLen(b []byte, n int) []byte {
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(b, byte(n))
}

// msg returns field tag followed by the length of body and body: a
// length-delimited field written by hand.
func msg(tag byte, body ...[]byte) []byte {
	b := cat(body...)
	return cat([]byte{tag}, appendLen(nil, len(b)), b)
}

// mustEqual fails unless a and b are equal once their empty slices are
// nil: proto3 and the JSON mapping leave out an empty bytes or repeated
// field, so "present and empty" and "absent" are one value.
func mustEqual[T any](t *testing.T, what string, a, b T) {
	t.Helper()
	if !equal(a, b) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, b, a)
	}
}

func equal[T any](a, b T) bool {
	na, nb := a, b
	nilEmpty(reflect.ValueOf(&na).Elem())
	nilEmpty(reflect.ValueOf(&nb).Elem())
	return reflect.DeepEqual(na, nb)
}

// nilEmpty sets every empty slice reachable from v to nil. It copies a
// pointed-to value before changing it, so that the caller's values stay
// as they were.
func nilEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Elem().Type())
			c.Elem().Set(v.Elem())
			nilEmpty(c.Elem())
			v.Set(c)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				nilEmpty(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.SetZero()
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := range c.Len() {
			nilEmpty(c.Index(i))
		}
		v.Set(c)
	case reflect.Array:
		for i := range v.Len() {
			nilEmpty(v.Index(i))
		}
	}
}
