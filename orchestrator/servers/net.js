'use strict';
const fs = require('node:fs');
const net = require('node:net');
const { ServerStartError } = require('../errors');

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Where a server's log says its port was taken (by FerretDB's Go, PostgreSQL), in the part since `from`. */
const PORT_TAKEN = /address already in use/i;
function portTakenIn(logFile, from) {
  try {
    const fd = fs.openSync(logFile, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, size - from));
      fs.readSync(fd, buf, 0, buf.length, from);
      return PORT_TAKEN.test(buf.toString('utf8'));
    } finally { fs.closeSync(fd); }
  } catch { return false; }
}

const logSize = (logFile) => { try { return fs.statSync(logFile).size; } catch { return 0; } };

/**
 * start(port) on a port freePort found free, again on another where the server could not bind it:
 * between freePort's close and the server's bind another process (a parallel test worker's
 * server, any program's outgoing connection) may take it. Where start fails, the server's log
 * (logFile) since that attempt says whether that is why, or the error says so itself
 * (`portTaken`); up to `attempts` ports are tried. `pick` chooses the ports (freePort; a test
 * hands one it holds first).
 */
async function onFreePort(start, { logFile = null, attempts = 3, pick = freePort } = {}) {
  for (let attempt = 1; ; attempt++) {
    const port = await pick();
    const from = logFile ? logSize(logFile) : 0;
    try {
      return await start(port);
    } catch (err) {
      const taken = err.portTaken || (logFile !== null && portTakenIn(logFile, from));
      if (!taken || attempt >= attempts) throw err;
    }
  }
}

/** Calls attempt() until it resolves, every intervalMs, failing with the last error after timeoutMs. */
async function retryUntil(attempt, { timeoutMs, intervalMs = 100, isAlive = () => true }) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    if (!isAlive()) break;
    try {
      return await attempt();
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw lastError || new ServerStartError(isAlive() ? `no answer within ${Math.round(timeoutMs / 1000)} s` : 'its process exited before it answered');
}

module.exports = { freePort, retryUntil, onFreePort };
