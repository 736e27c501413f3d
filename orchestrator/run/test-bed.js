'use strict';
// What a result set was measured on, stored with it.
const os = require('node:os');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../config');

function gitCommit() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return null;
  }
}

function describeTestBed({ shell = 'mongosh' } = {}) {
  const cpus = os.cpus();
  return {
    kit: { version: require('../../package.json').version, commit: gitCommit() },
    machine: {
      cpu: cpus[0] ? cpus[0].model.trim() : 'unknown',
      cores: cpus.length,
      memoryBytes: os.totalmem(),
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
    },
    node: process.version,
    shell,
    mongosh: require('mongosh/package.json').version,
    driver: require('mongodb/package.json').version,
  };
}

module.exports = { describeTestBed };
