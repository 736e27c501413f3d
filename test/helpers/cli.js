'use strict';
// Runs the real orchestrate binary, as a user would (mocha's invokeMocha pattern).
const path = require('node:path');
const { spawn } = require('node:child_process');

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'orchestrate.js');

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
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, child }));
    onSpawn(child);
  });
}

module.exports = { invokeOrchestrate, BIN };
