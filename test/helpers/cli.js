'use strict';
// Runs the real orchestrate binary, as a user would (mocha's invokeMocha pattern).
const path = require('node:path');
const { spawn } = require('node:child_process');
const { stopChild } = require('../../orchestrator/processes');

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'orchestrate.js');

/** The runs started here that have not ended: a test whose hook timed out leaves its run going on. */
const running = new Set();

/** Resolves to { code, signal, stdout, stderr, child } when the process exits. */
function invokeOrchestrate(args, { env = {}, onSpawn = () => {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    running.add(child);
    child.on('exit', () => running.delete(child));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, child }));
    onSpawn(child);
  });
}

/**
 * Stops every run started here that is still going (test/helpers/session.js calls it as each test
 * file ends): a hook that timed out leaves mocha going on to the next file while its run goes on,
 * its servers and shells taking the CPU every later test is timed on. Ctrl-C first, as a user
 * stops a run (the kit stops what it started and exits 130), SIGKILL after graceMs.
 */
async function stopRunsLeft(graceMs = 15000) {
  const left = [...running].filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(left.map((child) => stopChild(child, 'SIGINT', graceMs)));
  return left.length;
}

module.exports = { invokeOrchestrate, stopRunsLeft, BIN };
