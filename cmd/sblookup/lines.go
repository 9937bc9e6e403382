// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/urlspec/urlspec/internal/inputerr"
)

// maxLine is the longest input line read whole: the longest URL the
// library accepts, 2 MiB. A longer line is reported, not read into memory.
const maxLine = 2 << 20

// A line is one non-blank input line, white space trimmed.
type line struct {
	n       int    // its number, from 1, blank lines counted
	url     string // "" when tooLong
	tooLong bool   // over maxLine: only its first bytes are kept, in url
	err     error  // reading the input failed here: the last line sent
}

// readLines sends each non-blank line of r to out, in order, then closes
// out. A line over maxLine is sent with tooLong and its first 100 bytes,
// and reading goes on after it. A read error is sent as the last line.
func readLines(r io.Reader, out chan<- line) {
	defer close(out)
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		buf = buf[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(chunk) > maxLine+2 { // the line, and "\r\n"
					tooLong = true
					buf = append(buf, chunk[:min(len(chunk), inputerr.MaxQuoted+1)]...)
				} else {
					buf = append(buf, chunk...)
				}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		content := bytes.TrimRight(buf, "\r\n")
		tooLong = tooLong || len(content) > maxLine
		text := strings.TrimSpace(string(content))
		if tooLong {
			text = inputerr.Clip(text)
		}
		switch {
		case tooLong:
			out <- line{n: n, url: text, tooLong: true}
		case text != "":
			out <- line{n: n, url: text}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			out <- line{n: n, err: err}
			return
		}
	}
}
