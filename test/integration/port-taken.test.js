'use strict';
// A port freePort found free may be taken before the server binds it (a parallel worker's server,
// any program's outgoing connection): the server then starts on another, and says nothing of it
// (orchestrator/servers/net.js onFreePort). Real servers, handed a port this test holds first.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { startPostgres } = require('../../orchestrator/servers/postgres');
const { runFerretDB } = require('../../orchestrator/servers/ferretdb');
const { freePort, onFreePort } = require('../../orchestrator/servers/net');
const { cleanupAll } = require('../../orchestrator/processes');
const { skipUnless, config } = require('../helpers/servers');

describe('a server whose port is taken between its pick and its bind', function () {
  this.timeout(60000);
  let box;
  let holder;
  let held;
  const picked = [];
  // the held port first, then free ones
  const pick = async () => { const port = picked.length ? await freePort() : held; picked.push(port); return port; };

  before(async () => {
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-port-taken-'));
    fs.chmodSync(box, 0o755); // as root, PostgreSQL runs as its own user
    holder = net.createServer();
    await new Promise((resolve) => { holder.listen(0, '127.0.0.1', resolve); });
    held = holder.address().port;
  });
  beforeEach(() => { picked.length = 0; });
  after(async () => {
    holder?.close();
    await cleanupAll();
    if (box) fs.rmSync(box, { recursive: true, force: true });
  });

  it('PostgreSQL starts on another port, its log saying why the first failed', async function () {
    skipUnless(this, 'ferretdb-pg');
    const logFile = path.join(box, 'postgres.log');
    const pg = await startPostgres({ binDir: config.postgresBinDir, logFile, pick });
    try {
      assert.equal(picked[0], held);
      assert.equal(picked.length, 2, 'one retry');
      assert.equal(pg.port, picked[1]);
      assert.match(fs.readFileSync(logFile, 'utf8'), /address already in use/i);
      await pg.psql('postgres', 'SELECT 1');
    } finally {
      await pg.stop();
    }
  });

  it('FerretDB starts on another port, its log saying why the first failed', async function () {
    skipUnless(this, 'ferretdb');
    const dir = fs.mkdtempSync(path.join(box, 'ferretdb-'));
    fs.mkdirSync(path.join(dir, 'sqlite'));
    const logFile = path.join(box, 'ferretdb.log');
    const args = [`--state-dir=${dir}`, '--debug-addr=-', '--telemetry=disable', '--log-level=warn', '--handler=sqlite', `--sqlite-url=file:${dir}/sqlite/`];
    const server = await runFerretDB({ bin: config.ferretdbBin, args, dir, logFile, pick });
    try {
      assert.equal(picked[0], held);
      assert.equal(picked.length, 2, 'one retry');
      assert.equal(server.uri, `mongodb://127.0.0.1:${picked[1]}/`);
      assert.match(fs.readFileSync(logFile, 'utf8'), /address already in use/i);
    } finally {
      await server.stop();
    }
  });

  it('a failure for another cause is not retried, and the last port\'s failure is the one said', async () => {
    let calls = 0;
    await assert.rejects(onFreePort(async () => { calls++; throw new Error('no such binary'); }), /no such binary/);
    assert.equal(calls, 1);
    calls = 0;
    await assert.rejects(onFreePort(async (port) => { calls++; throw Object.assign(new Error(`taken ${port}`), { portTaken: true }); }, { attempts: 3 }), /taken \d+/);
    assert.equal(calls, 3);
  });
});
