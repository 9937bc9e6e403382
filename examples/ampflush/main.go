// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command ampflush prints, or sends, the signed update-cache requests that
// flush publisher URLs from every AMP Cache
// (https://developers.google.com/amp/cache/update-cache).
//
//	openssl genrsa -out private-key.pem 2048
//	openssl rsa -in private-key.pem -pubout -out apikey.pub
//	# serve apikey.pub as text/plain at https://www.example.com/.well-known/amphtml/apikey.pub
//	go run ./examples/ampflush -key private-key.pem https://www.example.com/article.html
//	go run ./examples/ampflush -key private-key.pem -send < urls.txt
//
// It reads the RSA private key (PEM, PKCS #1 or PKCS #8, at least 2048
// bits) from -key, and publisher URLs from its arguments, or one per line
// from standard input when it has none. For each it prints one signed URL
// per cache of caches.json that has an updateCacheApiDomainSuffix. With
// -send it sends each request and prints the cache's status before the
// URL instead. Errors go to standard error; it exits with status 1 if any
// URL could not be signed or sent, or a cache did not answer 2xx, and 2
// for bad usage.
package main

import (
	"bufio"
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/urlspec/urlspec/ampcache"
	"github.com/urlspec/urlspec/examples/internal/input"
)

const usage = `usage: ampflush -key private-key.pem [-send] [publisher URL ...]

Prints the signed update-cache URL of each publisher URL for every AMP
Cache, or with -send sends them and prints each cache's status. URLs come
from the arguments, or one per line from standard input.

`

// maxKeyFile bounds the private key file: an RSA key of 16384 bits in PEM
// is under 13 KiB.
const maxKeyFile = 64 << 10

func main() {
	client := &http.Client{
		Timeout: 30 * time.Second,
		// An update-cache answer is final: do not follow a redirect.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, client, time.Now))
}

// run is main with its inputs and outputs as arguments. It returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, client *http.Client, now func() time.Time) int {
	fs := flag.NewFlagSet("ampflush", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyFile := fs.String("key", "", "RSA private key `file` in PEM, PKCS #1 or PKCS #8 (required)")
	send := fs.Bool("send", false, "send each request and print the cache's status")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // Parse has printed the usage, on standard error
		}
		return 2
	}
	if *keyFile == "" {
		fmt.Fprintln(stderr, "ampflush: -key is required")
		fs.Usage()
		return 2
	}
	key, err := readKey(*keyFile)
	if err != nil {
		fmt.Fprintf(stderr, "ampflush: %v\n", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	status := 0
	err = input.Each(fs.Args(), stdin, func(pub string) {
		urls, err := ampcache.UpdateCacheURLs(pub, now(), key)
		if err != nil {
			fmt.Fprintf(stderr, "ampflush: %v\n", err)
			status = 1
			return
		}
		for _, u := range urls {
			if !*send {
				fmt.Fprintln(out, u)
				continue
			}
			code, err := get(client, u)
			if err != nil {
				out.Flush()
				fmt.Fprintf(stderr, "ampflush: %v\n", err)
				status = 1
				continue
			}
			if code/100 != 2 {
				status = 1
			}
			fmt.Fprintf(out, "%d %s\n", code, u)
		}
	})
	if err != nil {
		out.Flush()
		fmt.Fprintf(stderr, "ampflush: reading URLs: %v\n", err)
		status = 1
	}
	return status
}

// get sends one update-cache request and returns the status code.
func get(client *http.Client, u string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	return res.StatusCode, nil
}

// readKey reads an RSA private key in PEM, PKCS #1 ("RSA PRIVATE KEY", as
// openssl genrsa -traditional writes it) or PKCS #8 ("PRIVATE KEY", as
// OpenSSL 3's genrsa writes it). UpdateCacheURLs checks its type and size.
func readKey(name string) (crypto.Signer, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxKeyFile {
		return nil, fmt.Errorf("%s: over %d bytes: not a private key", name, maxKeyFile)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("%s: no PEM block", name)
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return k, nil
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		s, ok := k.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("%s: a %T cannot sign", name, k)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s: PEM block %q, want RSA PRIVATE KEY or PRIVATE KEY", name, block.Type)
}
