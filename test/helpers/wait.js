'use strict';

/** Resolves once predicate() is true, checking every 200 ms; rejects after timeoutMs. */
function waitFor(predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (predicate()) return resolve();
      if (Date.now() > deadline) return reject(new Error('timed out waiting'));
      setTimeout(tick, 200);
    };
    tick();
  });
}

module.exports = { waitFor };
