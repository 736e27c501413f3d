'use strict';
// A store's write settings read back (orchestrator/servers/store-settings.js) from a real
// PostgreSQL cluster: what a new session starts with, and what a session that ran SET
// synchronous_commit = off runs under, read on that session (the SQL baseline reads its timed
// connections so; a durability-matched side sets it there).
const assert = require('node:assert/strict');
const path = require('node:path');
const os = require('node:os');
const fs = require('node:fs');
const { Client } = require('pg');
const { startPostgres } = require('../../orchestrator/servers/postgres');
const { readPostgresSettings, postgresStoreOf } = require('../../orchestrator/servers/store-settings');
const { skipUnless, config } = require('../helpers/servers');

describe('PostgreSQL\'s write settings read back from the store', function () {
  this.timeout(120000);
  let pg;
  let logDir;

  before(async function () {
    skipUnless(this, 'ferretdb-pg');
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-store-settings-'));
    pg = await startPostgres({ binDir: config.postgresBinDir, logFile: path.join(logDir, 'postgres.log'), pgDir: config.pgDir, templates: true, prepare: { databases: ['ferretdb'] } });
  });
  after(async () => {
    await pg?.stop();
    if (logDir) fs.rmSync(logDir, { recursive: true, force: true });
  });

  it('reads what a new session starts with, and the version', async () => {
    const store = await postgresStoreOf(pg.url('ferretdb'), 'a new session');
    assert.equal(store.product, 'PostgreSQL');
    assert.match(store.version, /^\d+\.\d+/);
    assert.deepEqual(Object.keys(store.settings), ['commit_delay', 'fsync', 'full_page_writes', 'synchronous_commit', 'wal_sync_method', 'wal_writer_delay']);
    assert.deepEqual([store.settings.synchronous_commit.value, store.settings.fsync.value], ['on', 'on']);
  });

  it('reads a SET synchronous_commit = off on the session that ran it, and only there', async () => {
    const timed = new Client({ connectionString: pg.url('ferretdb') });
    const other = new Client({ connectionString: pg.url('ferretdb') });
    await Promise.all([timed.connect(), other.connect()]);
    try {
      await timed.query('SET synchronous_commit = off');
      const seen = await readPostgresSettings(timed);
      assert.deepEqual(seen.synchronous_commit, { value: 'off', source: 'session' });
      assert.equal((await readPostgresSettings(other)).synchronous_commit.value, 'on');
    } finally {
      await Promise.all([timed.end(), other.end()]);
    }
  });

  it('says why where the store cannot be reached, in one line', async () => {
    const store = await postgresStoreOf('postgres://postgres@127.0.0.1:1/none', 'nowhere');
    assert.equal(store.product, 'PostgreSQL');
    assert.match(store.unread, /ECONNREFUSED|connect/);
    assert.ok(!store.unread.includes('\n'));
  });
});
