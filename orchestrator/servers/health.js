'use strict';
// Whether a server the kit started is still there, in a few words when it is not: one of its
// processes exited (FerretDB, PostgreSQL's postmaster), or, for a server whose processes the kit
// does not hold itself (a mongod run by mongodb-memory-server), its port refuses connections.
// A step polls this while its shell runs, so a dead server ends the step at once instead of
// leaving a shell reconnecting to a closed port for ever.
const net = require('node:net');
const os = require('node:os');

function exitText(child) {
  if (child.signalCode) return `signal ${os.constants.signals[child.signalCode] ?? child.signalCode}`;
  return `code ${child.exitCode}`;
}

/** Resolves whether something listens on host:port (false only when the connection is refused). */
function portAnswers(host, port, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answers) => { socket.destroy(); resolve(answers); };
    socket.setTimeout(timeoutMs, () => done(true)); // slow is not dead: the deadline judges that
    socket.once('connect', () => done(true));
    socket.once('error', (err) => done(!['ECONNREFUSED', 'ECONNRESET'].includes(err.code)));
  });
}

/**
 * A function that resolves to null while the server lives, else why it is gone, e.g.
 * "PostgreSQL postmaster exited, signal 9". Servers the kit did not start are never judged here.
 */
function healthCheck(server) {
  if (!server.started) return async () => null;
  const watched = server.watched || [];
  let endpoint = null;
  try {
    const url = new URL(server.uri);
    if (!url.protocol.startsWith('mongodb+srv') && url.port) endpoint = { host: url.hostname, port: Number(url.port) };
  } catch { /* not a URL the kit made */ }
  // a connection a second would fill mongod's log with its accepts: the port is tried every 5 s
  let portTriedAt = 0;
  return async () => {
    // the backend first: FerretDB often ends because its PostgreSQL did
    for (const { name, child } of [...watched].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) return `${name} exited, ${exitText(child)}`;
    }
    if (!watched.length && endpoint && Date.now() - portTriedAt > 5000) {
      portTriedAt = Date.now();
      if (!(await portAnswers(endpoint.host, endpoint.port))) return `its port ${endpoint.port} refuses connections`;
    }
    return null;
  };
}

module.exports = { healthCheck, portAnswers };
