// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package v4wire

import "google.golang.org/protobuf/encoding/protowire"

// ClientInfo is the v4 ClientInfo that both update and search requests
// carry: who the client says it is.
type ClientInfo struct {
	ClientID      string // client_id
	ClientVersion string // client_version
}

// parseClientInfo reads ClientInfo { 1 client_id; 2 client_version }.
func parseClientInfo(b []byte) (ClientInfo, error) {
	var c ClientInfo
	r := reader{b: b}
	var f field
	for r.next(&f) {
		switch f.num {
		case clientID, clientVersion:
			v, err := f.bytes()
			if err != nil {
				return c, err
			}
			if f.num == clientID {
				c.ClientID = string(v)
			} else {
				c.ClientVersion = string(v)
			}
		}
	}
	return c, r.err
}

// readClientInfo reads f, a singular ClientInfo field.
func readClientInfo(f *field, seen *once) (ClientInfo, error) {
	b, err := seen.message(f)
	if err != nil {
		return ClientInfo{}, err
	}
	return parseClientInfo(b)
}

// appendClientInfo appends field num holding c, nothing when c is zero.
func appendClientInfo(b []byte, num protowire.Number, c *ClientInfo) []byte {
	if *c == (ClientInfo{}) {
		return b
	}
	return appendMessage(b, num, func(b []byte) []byte {
		b = appendString(b, clientID, c.ClientID)
		return appendString(b, clientVersion, c.ClientVersion)
	})
}

type jsonClientInfo struct {
	ClientID      string `json:"clientId,omitempty"`
	ClientVersion string `json:"clientVersion,omitempty"`
}

func clientToJSON(c ClientInfo) *jsonClientInfo {
	if c == (ClientInfo{}) {
		return nil
	}
	return &jsonClientInfo{ClientID: c.ClientID, ClientVersion: c.ClientVersion}
}

func clientFromJSON(j *jsonClientInfo) ClientInfo {
	if j == nil {
		return ClientInfo{}
	}
	return ClientInfo{ClientID: j.ClientID, ClientVersion: j.ClientVersion}
}
