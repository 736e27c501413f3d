'use strict';
// Servers for tests come from here. CLASSICS_TEST_URI points the suites that take a URI at a
// server that is already running instead; a kind that cannot run here gives a reason to skip.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { resolveConfig } = require('../../orchestrator/config');
const { postgresMissing } = require('../../orchestrator/servers/postgres');
const { ferretdb2Missing } = require('../../orchestrator/servers/ferretdb');
const { skip } = require('./skips');

const config = resolveConfig();

const STAND_IN = path.resolve(__dirname, '..', 'fixtures', 'mongod-stand-in', 'mongod-stand-in');

/**
 * Whether a binary is the kit's mongod stand-in (FerretDB behind a mongod's --version), here or a
 * copy of it: it never measures anything, so no suite that measures may run on it.
 */
const standInAnswers = new Map();
function isStandIn(bin) {
  try {
    if (fs.realpathSync(bin) === fs.realpathSync(STAND_IN)) return true;
  } catch { /* missing: not the stand-in */ }
  if (!standInAnswers.has(bin)) {
    const out = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20000 });
    standInAnswers.set(bin, /FerretDB, not mongod/.test(out.stdout || ''));
  }
  return standInAnswers.get(bin);
}

/** Why MONGOMS_SYSTEM_BINARY cannot run a suite that measures mongod, as { reason, detail }, or null when it can. */
function notMongod(bin) {
  if (!bin) return { reason: 'no mongod', detail: 'set MONGOMS_SYSTEM_BINARY to a mongod to run this suite (mongodb-memory-server cannot download one on this machine)' };
  if (!fs.existsSync(bin)) return { reason: 'MONGOMS_SYSTEM_BINARY names no file', detail: `MONGOMS_SYSTEM_BINARY=${bin} does not exist` };
  if (isStandIn(bin)) return { reason: 'MONGOMS_SYSTEM_BINARY is the mongod stand-in', detail: `MONGOMS_SYSTEM_BINARY=${bin} is the kit's mongod stand-in (FerretDB), which never stands in for mongod's numbers: set it to a real mongod` };
  return null;
}

const asText = (why) => (why ? (why.reason === 'no mongod' ? `no mongod binary here: ${why.detail}` : why.detail) : null);

/** Why MONGOMS_SYSTEM_BINARY cannot run a suite that measures mongod, or null when it can. */
const notMongodReason = (bin) => asText(notMongod(bin));

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Why a server kind cannot run on this machine, as { reason, detail } (reason: one of the fixed
 * phrases test/expected-skips.json counts), or null when it can.
 */
function unavailable(kindGiven) {
  // mongod:zstd, mongod:none, mongod-rs ... need what mongod needs
  const kind = kindGiven.split(':')[0];
  if (kind === 'ferretdb' || kind === 'ferretdb-pg') {
    if (!fs.existsSync(config.ferretdbBin)) return { reason: 'FerretDB is not built', detail: `not at ${config.ferretdbBin} (run npm run setup)` };
  }
  if (kind === 'ferretdb2') {
    const missing = ferretdb2Missing(config);
    if (missing) {
      return { reason: isRoot() ? 'ferretdb2 is not installed' : 'not root', detail: `${missing}: ferretdb2 is FerretDB 2.7 on PostgreSQL 18 with DocumentDB, which npm run setup installs as root into .tools/` };
    }
  }
  if (kind === 'ferretdb-pg') {
    const why = postgresMissing(config);
    if (why) return { reason: 'no PostgreSQL', detail: why };
  }
  if (/^mongod(-rs)?(@|$)/.test(kind)) {
    const why = notMongod(process.env.MONGOMS_SYSTEM_BINARY);
    if (why) return why;
  }
  return null;
}

/** Why a server kind cannot run on this machine, in words, or null when it can. */
const unavailableReason = (kind) => asText(unavailable(kind));

/** In a describe()'s before or an it(): skips, with its reason recorded, when kind cannot run here. */
function skipUnless(ctx, kind) {
  const why = unavailable(kind);
  if (why) skip(ctx, why.reason, `${kind}: ${why.detail}`);
}

/**
 * Starts a server of a kind through the kit's own code and returns { uri, stop }.
 * CLASSICS_TEST_URI, when set, is used instead and never stopped.
 */
async function startTestServer(kind) {
  if (process.env.CLASSICS_TEST_URI) return { uri: process.env.CLASSICS_TEST_URI, stop: async () => {} };
  const { parseServerSpec } = require('../../orchestrator/servers/spec');
  const { startServer } = require('../../orchestrator/servers/start');
  const os = require('node:os');
  const logDir = fs.mkdtempSync(`${os.tmpdir()}/classics-test-logs-`);
  const server = await startServer(parseServerSpec(kind), { config, logDir, log: () => {} });
  return {
    uri: server.uri,
    stop: async () => {
      await server.stop();
      await require('../../orchestrator/processes').cleanupAll(); // its temporary folders too
      fs.rmSync(logDir, { recursive: true, force: true });
    },
  };
}

module.exports = { unavailable, unavailableReason, notMongodReason, isRoot, isStandIn, skipUnless, startTestServer, config, STAND_IN };

// `npm run test:mongod` runs this first: one line and exit 2 when there is no real mongod to test.
if (require.main === module) {
  const why = notMongodReason(process.env.MONGOMS_SYSTEM_BINARY);
  if (why) {
    process.stderr.write(`test:mongod: ${why}\n`);
    process.exit(2);
  }
}
