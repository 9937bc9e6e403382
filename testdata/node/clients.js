// Calls the fake Safe Browsing v5 server with Google's generated Node
// client, @googleapis/safebrowsing, in JSON (its default), and prints one
// JSON line per method: {"method", "status", "data"} or {"method", "error"}.
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

(async () => {
  for (const [method, call] of calls) {
    try {
      const res = await call();
      console.log(JSON.stringify({method, status: res.status, data: res.data}));
    } catch (e) {
      console.log(JSON.stringify({method, error: String(e && e.message)}));
    }
  }
})();
