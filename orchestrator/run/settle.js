'use strict';
// Waiting on what may never answer, and saying why it did not: shared by the run's coordinators
// (benchmarks.js, the SQL baseline's conductor, paired servers), which each stop clients, servers
// and turns that a dead partner may leave hanging.
const { redactUri } = require('../servers/spec');

/** The first line of an error, its URIs' passwords hidden. */
function errorLine(err) {
  const text = redactUri(err && err.message ? err.message : String(err));
  return text.split('\n').map((l) => l.trim()).find(Boolean) || text;
}

/** Resolves when promise settles or after ms, whichever is first. */
function bounded(promise, ms) {
  let timer;
  return Promise.race([promise.catch(() => {}), new Promise((resolve) => { timer = setTimeout(resolve, ms); })]).finally(() => clearTimeout(timer));
}

module.exports = { errorLine, bounded };
