'use strict';
// The template clusters (orchestrator/servers/postgres.js templateCluster): a fresh PostgreSQL
// cluster copied from one made once (initdb, then what it is prepared with: ferretdb2's DocumentDB
// extension), and the same cluster made by initdb where templates are off. Real PostgreSQL, in
// DocumentDB's root file system where ferretdb2 is installed, else this machine's. Then, as root,
// where the kit keeps them (postgres-folder.js): PostgreSQL runs as the postgres user, so a
// checkout in a folder only root may enter keeps them in a folder of the kit's that user reaches.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startPostgres, postgresIdentity } = require('../../orchestrator/servers/postgres');
const { postgresFolder } = require('../../orchestrator/servers/postgres-folder');
const { DOCUMENTDB_SETTINGS } = require('../../orchestrator/servers/ferretdb');
const { cleanupAll } = require('../../orchestrator/processes');
const { unavailableReason, skipUnless, isRoot, config } = require('../helpers/servers');
const { skip } = require('../helpers/skips');

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
    if (!onDocumentDB) skipUnless(this, 'ferretdb-pg');
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-pg-template-'));
    fs.chmodSync(box, 0o755); // as root, PostgreSQL runs as its own user, who must reach the template
  });
  after(async () => {
    for (const pg of started) await pg.stop().catch(() => {});
    await cleanupAll();
    if (box) fs.rmSync(box, { recursive: true, force: true });
  });

  const start = async (pgDir, templates = true) => {
    const pg = await startPostgres({ ...cluster, logFile: path.join(box, 'postgres.log'), pgDir, templates });
    started.push(pg);
    return pg;
  };

  it('makes the template once, even for two starts at once, and starts each cluster as a copy of it, prepared', async () => {
    const pgDir = path.join(box, 'pg');
    const templates = path.join(pgDir, 'templates');
    const [a, b] = await Promise.all([start(pgDir), start(pgDir)]);
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
    const c = await start(pgDir);
    assert.equal(c.fromTemplate, true);
    assert.deepEqual(fs.readdirSync(templates).filter((d) => !d.endsWith('.lock')), made);
  });

  it('makes a cluster by initdb where templates are off, and prepares it all the same', async () => {
    const pg = await start(null, false);
    assert.equal(pg.fresh, true);
    assert.equal(pg.fromTemplate, false);
    assert.equal((await pg.psql('postgres', prepared)).stdout.trim(), '1');
  });
});

describe('as root, from a checkout in a folder only root may enter', function () {
  this.timeout(120000);
  let closed;
  let identity;
  const made = [];
  const started = [];
  const tmpdir = process.env.TMPDIR;
  // the kit's own folder under /var/tmp for a checkout at `checkout` (postgres-folder.js's name)
  const sharedName = (checkout) => path.join('/var/tmp', `mongo-classics-pg-${process.getuid()}-${crypto.createHash('sha256').update(checkout).digest('hex').slice(0, 12)}`);

  before(function () {
    if (!isRoot()) skip(this, 'not root', 'PostgreSQL runs as the kit\'s own user, who reaches wherever the kit does');
    skipUnless(this, 'ferretdb-pg');
    identity = postgresIdentity();
    closed = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-closed-')); // mode 700, as mktemp -d's
    fs.mkdirSync(path.join(closed, 'main', 'node_modules'), { recursive: true });
  });
  after(async () => {
    if (tmpdir === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = tmpdir;
    for (const pg of started) await pg.stop().catch(() => {});
    await cleanupAll();
    for (const dir of [closed, ...made]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the templates, and with TMPDIR closed the data too, in a folder of the kit\'s the postgres user reaches, and starts from there', async () => {
    const checkout = path.join(closed, 'main');
    const folder = postgresFolder(null, identity, { checkout });
    made.push(folder);
    assert.equal(folder, sharedName(checkout), 'one folder per user and checkout, outside it');
    const st = fs.lstatSync(folder);
    assert.ok(st.isDirectory() && st.uid === 0 && (st.mode & 0o777) === 0o711, `the kit's, enterable, no one else's to list or write: ${(st.mode & 0o777).toString(8)}`);
    assert.equal(postgresFolder(null, identity, { checkout }), folder, 'the same folder the next time');

    process.env.TMPDIR = closed; // TMPDIR closed too: the cluster's data go to the kit's folder
    let pg;
    try {
      pg = await startPostgres({ binDir: config.postgresBinDir, logFile: path.join(closed, 'postgres.log'), pgDir: folder, templates: true, prepare: { databases: ['ferretdb'] } });
      started.push(pg);
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = tmpdir;
    }
    assert.equal(pg.fromTemplate, true);
    assert.equal((await pg.psql('postgres', "SELECT count(*) FROM pg_database WHERE datname = 'ferretdb'")).stdout.trim(), '1');
    const clusters = fs.readdirSync(path.join(folder, 'clusters'));
    assert.equal(clusters.length, 1, 'the cluster\'s data in the kit\'s folder');
    assert.equal(fs.statSync(path.join(folder, 'clusters', clusters[0])).uid, identity.uid, 'owned by the postgres user');
    await pg.stop();
    await cleanupAll();
    assert.deepEqual(fs.readdirSync(path.join(folder, 'clusters')), [], 'removed with the server');
  });

  it('never uses a folder of that name that another user made first, or a link', () => {
    for (const [i, take] of [(dir) => { fs.mkdirSync(dir); fs.chownSync(dir, identity.uid, identity.gid); }, (dir) => fs.symlinkSync(closed, dir)].entries()) {
      const checkout = path.join(closed, `other-${i}`);
      const taken = sharedName(checkout);
      made.push(taken);
      take(taken);
      const folder = postgresFolder(null, identity, { checkout });
      made.push(folder);
      assert.notEqual(folder, taken);
      assert.ok(folder.startsWith('/var/tmp/mongo-classics-pg-'), folder);
      assert.equal(fs.lstatSync(folder).uid, 0);
      assert.equal((fs.statSync(closed).mode & 0o777), 0o700, 'the link\'s target left as it was');
    }
  });

  it('says in one line which folder stops it where CLASSICS_PG_DIR is one the postgres user cannot reach', () => {
    const chosen = path.join(closed, 'pg');
    assert.throws(() => postgresFolder(chosen, identity), (err) => err.name === 'ServerStartError'
      && err.message === `PostgreSQL runs as the postgres user, which cannot pass through ${closed} to keep its clusters in ${chosen} (CLASSICS_PG_DIR): choose a folder others can enter (or chmod o+x ${closed})`);
  });
});
