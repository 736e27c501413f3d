'use strict';
const assert = require('node:assert/strict');
const { parseServerSpec, parseServerSpecs, redactUri } = require('../../orchestrator/servers/spec');
const { UsageError } = require('../../orchestrator/errors');

describe('server specs', () => {
  const accepted = [
    ['embedded', { kind: 'embedded', name: 'embedded' }],
    ['mongod', { kind: 'mongod', version: null, name: 'mongod' }],
    ['mongod@7.0.14', { kind: 'mongod', version: '7.0.14', name: 'mongod@7.0.14' }],
    ['ferretdb', { kind: 'ferretdb', backend: 'sqlite', name: 'ferretdb' }],
    ['ferretdb-pg', { kind: 'ferretdb', backend: 'postgresql', name: 'ferretdb-pg' }],
    ['ferretdb2', { kind: 'ferretdb2', name: 'ferretdb2' }],
    ['prod=mongodb://db.example:27017/?tls=true', { kind: 'uri', name: 'prod', uri: 'mongodb://db.example:27017/?tls=true' }],
    ['atlas=mongodb+srv://u:p@cluster0.example.net/', { kind: 'uri', name: 'atlas', uri: 'mongodb+srv://u:p@cluster0.example.net/' }],
  ];
  for (const [text, expected] of accepted) {
    it(`accepts ${text}`, () => {
      const spec = parseServerSpec(text);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(spec[k], v, k);
    });
  }

  const refused = [
    ['foo', /unknown server spec 'foo' \(accepted: embedded/],
    ['mongod@latest', /unknown server spec/],
    ['x=http://host', /not a mongodb:\/\/ or mongodb\+srv:\/\/ URI/],
    ['x=mongodb://', /malformed URI/],
    ['bad name=mongodb://h', /unknown server spec/],
  ];
  for (const [text, message] of refused) {
    it(`refuses ${text} with a UsageError`, () => {
      assert.throws(() => parseServerSpec(text), (err) => err instanceof UsageError && message.test(err.message) && err.exitCode === 2);
    });
  }

  it('defaults to embedded and refuses two servers of one name', () => {
    assert.deepEqual(parseServerSpecs([]).map((s) => s.name), ['embedded']);
    assert.throws(() => parseServerSpecs(['ferretdb', 'ferretdb']), /two servers are named 'ferretdb'/);
  });

  it('never shows a password, in specs or in messages', () => {
    assert.equal(redactUri('mongodb://alice:s3cret@h:1/db'), 'mongodb://alice:****@h:1/db');
    assert.equal(redactUri('mongodb+srv://alice:s3cret@c.example.net'), 'mongodb+srv://alice:****@c.example.net');
    assert.equal(redactUri('mongodb://h:1/db'), 'mongodb://h:1/db');
    assert.equal(parseServerSpec('p=mongodb://alice:s3cret@h:1/').spec, 'p=mongodb://alice:****@h:1/');
    assert.throws(() => parseServerSpec('p=mongodb://alice:s3cret@'), (err) => !err.message.includes('s3cret'));
  });

  it('names the kind of a server record as the descriptors do: FerretDB 2 is ferretdb2 whatever the spec (it runs only on DocumentDB)', () => {
    const { serverKind } = require('../../orchestrator/results/records');
    assert.equal(serverKind({ spec: 'ferretdb2', product: 'FerretDB', version: 'v2.7.0', engine: 'PostgreSQL 18.6 (Debian 18.6-3) with DocumentDB 1.0-0' }), 'ferretdb2');
    assert.equal(serverKind({ spec: 'embedded', product: 'FerretDB', version: 'v2.7.0', engine: 'PostgreSQL 18.6 with DocumentDB 1.0-0' }), 'ferretdb2');
    assert.equal(serverKind({ spec: 'embedded', product: 'FerretDB', version: 'v1.24.0', engine: 'PostgreSQL 15.18' }), 'ferretdb-pg');
    assert.equal(serverKind({ spec: 'mine=mongodb://h', product: 'FerretDB', version: 'v1.24.0', engine: 'SQLite' }), 'ferretdb');
  });

  it('records what FerretDB says at start-up: its backend and its warnings (FerretDB 2 on another DocumentDB than its own)', async () => {
    const { describeServer } = require('../../orchestrator/servers/start');
    const line = (msg) => JSON.stringify({ t: { $date: '2026-01-01T00:00:00Z' }, s: 'I', c: 'STORAGE', id: 42000, msg, tags: ['startupWarnings'] });
    const mismatch = 'This version of FerretDB requires DocumentDB "0.107.0". The currently installed version is "1.0.0". Some functions may not behave correctly.';
    const answers = {
      buildInfo: { version: '7.0.77', ferretdb: { version: 'v2.7.0' } },
      hello: { isWritablePrimary: true, maxWireVersion: 21 },
      serverStatus: { ok: 1 },
      getLog: { log: [line('Powered by FerretDB v2.7.0 and DocumentDB 1.0.0 (PostgreSQL 18.6).'), line('Please star us on GitHub.'), line(mismatch)] },
    };
    const client = { db: () => ({ command: async (c) => answers[Object.keys(c)[0]] }) };
    const { roundTripMs, ...record } = await describeServer(client, { backend: 'PostgreSQL 18.6 with DocumentDB 1.0-0' });
    assert.ok(roundTripMs >= 0);
    assert.deepEqual(record, {
      product: 'FerretDB', version: 'v2.7.0', wireVersion: 21, engine: 'PostgreSQL 18.6 with DocumentDB 1.0-0', topology: 'standalone', topologyText: 'standalone',
      retryWrites: true, retryableWrites: false, readPreference: { mode: 'primary', source: 'the default' },
      backendVersion: 'DocumentDB 1.0.0 (PostgreSQL 18.6)', warnings: [mismatch],
      // no PostgreSQL handed to it: its settings not read, and why
      store: { product: null, unread: 'FerretDB\'s backend is not reachable from here: the kit did not start it' },
      // no URI given: none of its concerns, and what each timed operation asks for itself
      uriConcerns: { readConcernLevel: null, w: null, journal: null, wtimeoutMS: null },
      timedConcerns: {
        readConcern: { level: null, from: 'none named: the server\'s default read concern' },
        writeConcern: { from: 'each timed write names its own, w:0 or w:1 without j (its record\'s writeConcern)', uriReaches: false },
      },
    });
    answers.getLog = { log: [] };
    assert.deepEqual(Object.keys(await describeServer(client, {})), ['product', 'version', 'wireVersion', 'engine', 'topology', 'topologyText', 'retryWrites', 'retryableWrites', 'readPreference', 'uriConcerns', 'timedConcerns', 'roundTripMs', 'store']);
  });
});
