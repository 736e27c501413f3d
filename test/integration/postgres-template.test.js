'use strict';
// The template clusters (orchestrator/servers/postgres.js templateCluster): a fresh PostgreSQL
// cluster copied from one made once (initdb, then what it is prepared with: ferretdb2's DocumentDB
// extension), and the same cluster made by initdb where templates are off. Real PostgreSQL, in
// DocumentDB's root file system where ferretdb2 is installed, else this machine's.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startPostgres } = require('../../orchestrator/servers/postgres');
const { DOCUMENTDB_SETTINGS } = require('../../orchestrator/servers/ferretdb');
const { cleanupAll } = require('../../orchestrator/processes');
const { unavailableReason, config } = require('../helpers/servers');

describe('PostgreSQL clusters copied from a template, and made by initdb where templates are off', function () {
  this.timeout(120000);
  const onDocumentDB = !unavailableReason('ferretdb2');
  // DocumentDB's extension where its root file system is here; else a database, as ferretdb-pg's
  const cluster = onDocumentDB
    ? { root: config.documentdbRoot, settings: DOCUMENTDB_SETTINGS, prepare: { sql: ['CREATE EXTENSION documentdb CASCADE'] } }
    : { binDir: config.postgresBinDir, settings: {}, prepare: { databases: ['ferretdb'] } };
  const prepared = onDocumentDB ? "SELECT count(*) FROM pg_extension WHERE extname = 'documentdb'" : "SELECT count(*) FROM pg_database WHERE datname = 'ferretdb'";
  let box;
  const started = [];

  before(function () {
    const why = unavailableReason('ferretdb-pg');
    if (why && !onDocumentDB) {
      process.stdout.write(`      skipped: ${why}\n`);
      this.skip();
    }
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-pg-template-'));
    fs.chmodSync(box, 0o755); // as root, PostgreSQL runs as its own user, who must reach the template
  });
  after(async () => {
    for (const pg of started) await pg.stop().catch(() => {});
    await cleanupAll();
    if (box) fs.rmSync(box, { recursive: true, force: true });
  });

  const start = async (templateDir) => {
    const pg = await startPostgres({ ...cluster, logFile: path.join(box, 'postgres.log'), templateDir });
    started.push(pg);
    return pg;
  };

  it('makes the template once, even for two starts at once, and starts each cluster as a copy of it, prepared', async () => {
    const templates = path.join(box, 'templates');
    const [a, b] = await Promise.all([start(templates), start(templates)]);
    const made = fs.readdirSync(templates).filter((d) => !d.endsWith('.lock'));
    assert.equal(made.length, 1, `one template: ${made}`);
    assert.ok(fs.existsSync(path.join(templates, made[0], '.ready')) && fs.existsSync(path.join(templates, made[0], 'data', 'PG_VERSION')));
    for (const pg of [a, b]) {
      assert.equal(pg.fresh, true);
      assert.equal(pg.fromTemplate, true);
      assert.equal((await pg.psql('postgres', prepared)).stdout.trim(), '1', 'prepared as the template was');
    }
    assert.notEqual(a.port, b.port);
    // a third start reuses it
    const c = await start(templates);
    assert.equal(c.fromTemplate, true);
    assert.deepEqual(fs.readdirSync(templates).filter((d) => !d.endsWith('.lock')), made);
  });

  it('makes a cluster by initdb where templates are off, and prepares it all the same', async () => {
    const pg = await start(null);
    assert.equal(pg.fresh, true);
    assert.equal(pg.fromTemplate, false);
    assert.equal((await pg.psql('postgres', prepared)).stdout.trim(), '1');
  });
});
