'use strict';
// Which processes a test's run left behind: every process the kit starts inherits its
// environment, so a unique variable given to the run finds them, whoever their parent is now.
const fs = require('node:fs');
const crypto = require('node:crypto');

function newTag() {
  return { CLASSICS_TEST_TAG: crypto.randomBytes(6).toString('hex') };
}

/** [{ pid, cmd }] of live processes whose environment holds the tag. */
function processesWithTag(tagEnv) {
  const needle = `CLASSICS_TEST_TAG=${tagEnv.CLASSICS_TEST_TAG}`;
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (!environ.split('\0').includes(needle)) continue;
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      const state = /State:\s+(\w)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (state && state[1] === 'Z') continue; // a zombie has exited; its parent has yet to reap it
      found.push({ pid: Number(pid), cmd });
    } catch { /* gone, or not ours to read */ }
  }
  return found;
}

/**
 * The tagged processes still there once those that are ending have ended: a process the kit
 * stops (its watchdog, SIGKILLed as it exits; a server's last child) leaves the process table a
 * moment after, later on a loaded machine, so this waits, up to timeoutMs, for none to be left.
 */
async function leftAfter(tagEnv, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  let left = processesWithTag(tagEnv);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => { setTimeout(r, 100); });
    left = processesWithTag(tagEnv);
  }
  return left;
}

module.exports = { newTag, processesWithTag, leftAfter };
