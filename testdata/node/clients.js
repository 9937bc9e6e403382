// Calls the fake Safe Browsing v5 server with Google's generated Node
// client, @googleapis/safebrowsing, in JSON (its only format), and prints
// one JSON line per method: {"method", "status", "data"} or {"method",
// "error"}; then, for urls.search with a wrong key, {"method":
// "urls.search wrong key", "status", "error", "reason"}, reason being that
// of the google.rpc.ErrorInfo in the error's details.
//
// Usage: ROOT_URL=http://127.0.0.1:port/ API_KEY=key PREFIX=base64 \
//        URL=http://evil.example/ node clients.js
'use strict';

const {safebrowsing} = require('@googleapis/safebrowsing');

const client = safebrowsing({
  version: 'v5',
  auth: process.env.API_KEY,
  rootUrl: process.env.ROOT_URL,
  retry: false,
});

const calls = [
  ['hashes.search', () => client.hashes.search({hashPrefixes: [process.env.PREFIX]})],
  ['hashList.get', () => client.hashList.get({name: 'se-4b'})],
  ['hashLists.batchGet', () => client.hashLists.batchGet({names: ['se-4b', 'mw-4b']})],
  ['hashLists.list', () => client.hashLists.list({pageSize: 2})],
  ['urls.search', () => client.urls.search({urls: [process.env.URL, 'http://good.example/']})],
];

const wrong = safebrowsing({
  version: 'v5',
  auth: 'not-' + process.env.API_KEY,
  rootUrl: process.env.ROOT_URL,
  retry: false,
});

(async () => {
  for (const [method, call] of calls) {
    try {
      const res = await call();
      console.log(JSON.stringify({method, status: res.status, data: res.data}));
    } catch (e) {
      console.log(JSON.stringify({method, error: String(e && e.message)}));
    }
  }
  const method = 'urls.search wrong key';
  try {
    const res = await wrong.urls.search({urls: [process.env.URL]});
    console.log(JSON.stringify({method, status: res.status, data: res.data}));
  } catch (e) {
    const details = (e.response && e.response.data && e.response.data.error && e.response.data.error.details) || [];
    const info = details.find(d => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo') || {};
    console.log(JSON.stringify({method, status: e.status, error: String(e.message), reason: info.reason}));
  }
})();
