'use strict';
// A server the kit did not start: it asks first, leases the server, touches only its own
// marked databases and never shows a password. The "user's server" here is a FerretDB on
// PostgreSQL started through the kit's own code (or CLASSICS_TEST_URI).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MongoClient, MongoServerError } = require('mongodb');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { waitFor } = require('../helpers/wait');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless, startTestServer } = require('../helpers/servers');
const { skip } = require('../helpers/skips');

/** A server's codes for credentials it will not take: AuthenticationFailed, MechanismUnavailable. */
const PLAIN_REFUSED = [18, 334];

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('a user\'s server', function () {
  this.timeout(300000);
  let server;
  let client;
  const outs = [];
  const newOut = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-user-')); outs.push(d); return d; };

  before(async function () {
    skipUnless(this, 'ferretdb-pg');
    server = await startTestServer('ferretdb-pg');
    client = new MongoClient(server.uri);
    await client.connect();
  });

  after(async () => {
    if (client) await client.close();
    if (server) await server.stop();
    outs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  it('stops without --yes when there is no terminal to ask on, saying where and how much it would write', async () => {
    const { code, stderr } = await invokeOnFixture(['--server', `mine=${server.uri}`, '--size', 'smoke', '--no-calibrate', '--out', newOut()]);
    assert.equal(code, 2);
    assert.match(stderr, new RegExp(`will write to 'mine=mongodb://127\\.0\\.0\\.1:\\d+/'.*database ${fixture.database}.*DOCS=${fixture.sizes.smoke.DOCS}.*add --yes`));
    const dbs = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
    assert.ok(!dbs.includes(fixture.database), 'nothing written');
  });

  it('refuses a database with its prefix that it did not mark, and leaves it alone', async () => {
    const theirs = client.db(fixture.database);
    await theirs.collection('precious').insertOne({ _id: 1, note: 'not the kit\'s' });
    try {
      const out = newOut();
      const { code } = await invokeOnFixture(['--server', `mine=${server.uri}`, '--size', 'smoke', '--no-calibrate', '--passes', '1', '--format', 'results.csv', '--yes', '--out', out]);
      assert.equal(code, 1);
      const run = readRun(out);
      assert.match(run.failures[0].error, new RegExp(`${fixture.database} exists and was not created by mongo-classics`));
      assert.equal(await theirs.collection('precious').countDocuments(), 1, 'their data is still there');
      assert.equal(run.measurements.length, 0);
    } finally {
      await theirs.dropDatabase();
    }
  });

  it('refuses a second run on a server another run holds, naming that run', async () => {
    const outA = newOut();
    let second;
    // only its exit code and the lease are read: no charts or pages are rendered
    const first = await invokeOnFixture(['--server', `mine=${server.uri}`, '--size', 'smoke', '--no-calibrate', '--passes', '4', '--format', 'results.csv', '--yes', '--out', outA], {
      onSpawn: () => {
        waitFor(() => fs.existsSync(path.join(outA, 'results.jsonl')) && fs.readFileSync(path.join(outA, 'results.jsonl'), 'utf8').includes('"type":"server"'), 120000)
          .then(() => { second = invokeOnFixture(['--server', `again=${server.uri}`, '--size', 'smoke', '--no-calibrate', '--yes', '--out', newOut()]); });
      },
    });
    const refused = await second;
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, new RegExp(`ServerBusyError: server 'again' is in use by run ${path.basename(outA)}-\\d+`));
    assert.equal(first.code, 0, first.stderr);
    const lease = await client.db('classics_kit').collection('leases').findOne({ _id: 'server' });
    assert.equal(lease, null, 'the first run released its lease');
  });

  it('refuses credentials the server rejects, in one line and within 10 s', async () => {
    const uri = server.uri.replace('mongodb://', 'mongodb://no_such_role:wrong@') + '?authMechanism=PLAIN';
    const started = Date.now();
    const { code, stderr } = await invokeOnFixture(['--server', `bad=${uri}`, '--size', 'smoke', '--yes', '--out', newOut()]);
    assert.equal(code, 2);
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
    assert.match(stderr, /^UsageError: server 'bad' at mongodb:\/\/no_such_role:\*\*\*\*@/);
    assert.doesNotMatch(stderr, /wrong@/);
    assert.ok(Date.now() - started < 10000);
  });

  it('records the URI\'s read concern and write options, what the timed operations took, and the default concerns of a server without replication (CommandNotFound from a standalone)', async () => {
    const out = newOut();
    const uri = `${server.uri}?readConcernLevel=local&w=1&journal=true`;
    const { code, stderr } = await invokeOnFixture(['--server', `own=${uri}`, '--size', 'smoke', '--no-calibrate', '--passes', '1', '--yes', '--out', out]);
    assert.equal(code, 0, stderr);
    const record = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((r) => r.type === 'server');
    assert.deepEqual(record.uriConcerns, { readConcernLevel: 'local', w: 1, journal: true, wtimeoutMS: null });
    assert.deepEqual(record.timedConcerns.readConcern, { level: 'local', from: 'the URI (readConcernLevel)' });
    assert.equal(record.timedConcerns.writeConcern.uriReaches, false);
    // FerretDB answers getDefaultRWConcern CommandNotFound (59), and its hello names no set
    const source = 'no replication (getDefaultRWConcern: CommandNotFound, and hello says a standalone)';
    assert.deepEqual([record.defaultWriteConcern, record.defaultReadConcern], [{ w: 1, source }, { level: 'local', source }]);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /- own: the URI names readConcernLevel=local, w=1, journal=true: every read the scripts time takes that read concern/);
  });

  it('keeps the password out of everything it prints and writes', async function () {
    // FerretDB on PostgreSQL hands PLAIN credentials to PostgreSQL, whose trust auth takes any password
    const secret = 'Sup3r-s3cret-pw';
    const uri = server.uri.replace('mongodb://', `mongodb://postgres:${secret}@`) + '?authMechanism=PLAIN';
    const probe = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
    // the kit's own FerretDB on PostgreSQL takes them: any error there (a timeout, a refusal) fails
    // the test; only a server given in CLASSICS_TEST_URI may refuse PLAIN (its code, not its words)
    let refused = null;
    try { await probe.connect(); await probe.db('admin').command({ ping: 1 }); } catch (err) {
      if (!process.env.CLASSICS_TEST_URI || !(err instanceof MongoServerError) || !PLAIN_REFUSED.includes(err.code)) throw err;
      refused = err;
    } finally { await probe.close(); }
    if (refused) skip(this, 'the server in CLASSICS_TEST_URI takes no PLAIN credentials', `${refused.codeName ?? refused.code}`);
    const out = newOut();
    const { code, stdout, stderr } = await invokeOnFixture(['--server', `auth=${uri}`, '--size', 'smoke', '--no-calibrate', '--passes', '1', '--yes', '--out', out]);
    assert.equal(code, 0, stderr);
    assert.ok(!`${stdout}${stderr}`.includes(secret));
    const files = filesUnder(out);
    assert.ok(files.some((f) => f.endsWith('.png')) && files.some((f) => f.endsWith('results.jsonl')));
    for (const file of files) assert.ok(!fs.readFileSync(file).includes(secret), `${path.relative(out, file)} holds the password`);
    assert.match(fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8'), /postgres:\*\*\*\*@/);
  });
});
