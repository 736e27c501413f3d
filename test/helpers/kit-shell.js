'use strict';
// Runs a script through either shell exactly as the kit starts it (run/shells.js
// shellInvocation: --nodb --quiet --norc, the variables and the connection in --eval, the URI in
// the environment, the kit's folder as working directory), so that the two can be compared line
// for line.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { shellInvocation } = require('../../orchestrator/run/shells');
const { trackChild } = require('../../orchestrator/processes');

/**
 * Resolves to { code, signal, stdout, stderr, calls } of `shell` running code (or file),
 * connected to uri; the kit's shell with its lean path on or off (lean), and `calls`, which path
 * took its calls (what it writes for the kit: api/lean.js's usage).
 */
async function runShell(shell, { uri = null, vars = {}, code = null, file = null, lean = 'on', timeoutMs = 120000 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-kit-shell-test-'));
  const callsFile = path.join(dir, 'calls.json');
  if (code !== null) {
    file = path.join(dir, 'script.js');
    fs.writeFileSync(file, code);
  }
  try {
    const { command, args, env, cwd } = shellInvocation({ shell, uri, file, vars, lean, callsFile });
    return await new Promise((resolve, reject) => {
      const child = trackChild(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('error', reject);
      child.on('close', (exitCode, signal) => {
        clearTimeout(timer);
        const calls = fs.existsSync(callsFile) ? JSON.parse(fs.readFileSync(callsFile, 'utf8')) : null;
        resolve({ code: exitCode, signal, stdout, stderr, calls });
      });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { runShell };
