// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Drives cmd/sbserver with Google's published Node client for Safe
// Browsing (@googleapis/safebrowsing), its rootUrl pointed at the server:
// urls.search (v5) and threatMatches.find (v4), and API errors, with the
// ErrorInfo reason of a wrong key.
//
// Usage: node sbserver.mjs ROOT_URL CLIENT_KEY
// It prints one "ok ..." line per check and exits 1 on the first failure.
import assert from 'node:assert/strict';
import {safebrowsing} from '@googleapis/safebrowsing';

const [rootUrl, key] = process.argv.slice(2);
if (!rootUrl || !key) {
  console.error('usage: node sbserver.mjs ROOT_URL CLIENT_KEY');
  process.exit(2);
}

const malware = 'http://malware.testing.google.test/testing/malware/';
const phishing = 'https://testsafebrowsing.appspot.com/s/phishing.html';
const clean = 'http://example.com/';

async function main() {
  // v5 urls.search: the API key as the client sends it (key=).
  const v5 = safebrowsing({version: 'v5', rootUrl, auth: key});
  const res = await v5.urls.search({urls: [malware, phishing, clean]});
  assert.equal(res.status, 200);
  const byURL = Object.fromEntries((res.data.threats || []).map(t => [t.url, t.threatTypes]));
  assert.deepEqual(byURL[malware], ['MALWARE']);
  assert.deepEqual(byURL[phishing], ['SOCIAL_ENGINEERING']);
  assert.equal(byURL[clean], undefined, 'the clean URL has no threat');
  assert.equal(res.data.cacheDuration, '300s');
  console.log('ok v5 urls.search', JSON.stringify(res.data));

  const none = await v5.urls.search({urls: [clean]});
  assert.deepEqual(none.data, {cacheDuration: '300s'});
  console.log('ok v5 urls.search clean', JSON.stringify(none.data));

  // v4 threatMatches.find.
  const v4 = safebrowsing({version: 'v4', rootUrl, auth: key});
  const found = await v4.threatMatches.find({
    requestBody: {
      client: {clientId: 'urlspec-test', clientVersion: '1.0'},
      threatInfo: {
        threatTypes: ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'],
        platformTypes: ['ANY_PLATFORM'],
        threatEntryTypes: ['URL'],
        threatEntries: [{url: malware}, {url: phishing}, {url: clean}],
      },
    },
  });
  assert.equal(found.status, 200);
  const matches = found.data.matches.map(m => [m.threat.url, m.threatType, m.platformType, m.threatEntryType]);
  assert.deepEqual(matches, [
    [malware, 'MALWARE', 'ANY_PLATFORM', 'URL'],
    [phishing, 'SOCIAL_ENGINEERING', 'ANY_PLATFORM', 'URL'],
  ]);
  console.log('ok v4 threatMatches.find', JSON.stringify(found.data));

  const nothing = await v4.threatMatches.find({
    requestBody: {threatInfo: {threatTypes: ['MALWARE'], platformTypes: ['WINDOWS'], threatEntryTypes: ['URL'], threatEntries: [{url: clean}]}},
  });
  assert.deepEqual(nothing.data, {});
  console.log('ok v4 threatMatches.find clean', JSON.stringify(nothing.data));

  // Errors come back as API errors, in Google's shape.
  const wrong = safebrowsing({version: 'v5', rootUrl, auth: 'not-a-client-key'});
  await assert.rejects(wrong.urls.search({urls: [clean]}), err => {
    assert.equal(err.status ?? err.code, 403);
    assert.match(err.message, /client key not accepted/);
    // The reason of the google.rpc.ErrorInfo in the error's details, as
    // Google's APIs give a wrong key.
    const details = err.response?.data?.error?.details ?? [];
    const info = details.find(d => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
    assert.equal(info?.reason, 'API_KEY_INVALID');
    assert.equal(info?.domain, 'googleapis.com');
    assert.deepEqual(info?.metadata, {service: 'safebrowsing.googleapis.com'});
    return true;
  });
  await assert.rejects(v5.urls.search({urls: ['mailto:a@b']}), err => {
    assert.equal(err.status ?? err.code, 400);
    assert.match(err.message, /urls\[0\]/);
    return true;
  });
  console.log('ok API errors');
}

main().catch(err => {
  console.error('FAIL', err.stack || err);
  process.exit(1);
});
