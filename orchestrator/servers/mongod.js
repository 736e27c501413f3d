'use strict';
// A real mongod from mongodb-memory-server: downloaded where the network allows, or the binary
// named by MONGOMS_SYSTEM_BINARY (the library reads that variable itself).
const fs = require('node:fs');
const path = require('node:path');
const { ServerStartError } = require('../errors');
const { makeTempDir } = require('../processes');

/** Runs fn with console.warn captured: the library warns on stderr before it throws. */
async function quietly(fn) {
  const warn = console.warn;
  const captured = [];
  console.warn = (...args) => captured.push(args.join(' '));
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function startMongod({ version, compressor, config, keepDir = null }) {
  const { MongoMemoryServer } = require('mongodb-memory-server-core');
  const dbPath = keepDir ? path.join(keepDir, 'mongod') : makeTempDir('classics-mongod-');
  fs.mkdirSync(dbPath, { recursive: true });
  const options = {
    instance: {
      dbPath,
      storageEngine: 'wiredTiger',
      ip: '127.0.0.1',
      args: compressor ? ['--wiredTigerCollectionBlockCompressor', compressor] : [],
    },
    binary: version ? { version } : {},
  };
  let server;
  try {
    server = await quietly(() => withTimeout(MongoMemoryServer.create(options), config.mongodDownloadTimeoutMs,
      'getting a mongod binary'));
  } catch (err) {
    const reason = (err.message || String(err)).split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 2).join(' ');
    throw new ServerStartError(`no mongod could be started: ${reason}`);
  }
  return {
    uri: server.getUri(),
    description: `mongod ${version || ''}${compressor ? ` with ${compressor} block compression` : ''}`.replace(/\s+/g, ' ').trim(),
    started: true,
    stop: () => server.stop({ doCleanup: false, force: false }),
  };
}

module.exports = { startMongod };
