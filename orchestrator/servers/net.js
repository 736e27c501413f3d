'use strict';
const net = require('node:net');

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
  throw lastError || new Error('gave up waiting');
}

module.exports = { freePort, retryUntil };
