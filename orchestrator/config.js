'use strict';
// Every setting the kit reads from its environment, in one place (the README lists them).
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

function resolveConfig(env = process.env) {
  return {
    root: ROOT,
    shellDir: env.CLASSICS_SHELL_DIR || path.join(ROOT, 'shell'),
    runsDir: path.join(ROOT, 'reports', 'runs'),
    figuresDir: path.join(ROOT, 'reports', 'figures'),
    ferretdbBin: env.CLASSICS_FERRETDB_BIN || path.join(ROOT, '.tools', 'ferretdb', 'bin', 'ferretdb'),
    postgresBinDir: env.CLASSICS_PG_BINDIR || null,
    mongodSystemBinary: env.MONGOMS_SYSTEM_BINARY || null,
    // mongodb-memory-server's own download; the kit only bounds how long it may take.
    mongodDownloadTimeoutMs: Number(env.CLASSICS_MONGOD_TIMEOUT_MS || 120000),
    // an unreachable server must fail the whole command within 10 s
    serverSelectionTimeoutMs: 8000,
    dbPrefix: 'classics_',
  };
}

module.exports = { resolveConfig, ROOT };
