'use strict';
// Every script of every scenario pasted into a mongosh prompt, as a user pastes it: the smoke
// sizes as `var X = n;` lines, then the script's text, on mongosh's standard input (mongosh reads
// it line by line, as typed, so a statement split where a line could end, or a function used
// above its declaration, fails here where `--file` would pass). The scenarios are found by
// reading shell/*/scenario.json; their steps are pasted in order on one FerretDB, then each
// scenario's first step once more, since a second paste must work as the first.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startTestServer, unavailableReason } = require('../helpers/servers');

const SHELL = path.resolve(__dirname, '..', '..', 'shell');
const MONGOSH = require.resolve('mongosh/bin/mongosh.js');
// What mongosh prints for an error at its prompt, and the errors a script could raise.
const ERROR_LINE = /Uncaught|SyntaxError|ReferenceError|TypeError|RangeError|Mongo\w*Error|MongoshInvalidInputError/;

const scenarios = fs.readdirSync(SHELL, { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(SHELL, e.name, 'scenario.json')))
  .map((e) => ({ dir: path.join(SHELL, e.name), ...JSON.parse(fs.readFileSync(path.join(SHELL, e.name, 'scenario.json'), 'utf8')) }))
  .sort((a, b) => a.name.localeCompare(b.name));

/**
 * The paired rounds a pasted script is cut into: the fewest a script takes (a paste checks that
 * the text runs at a prompt, not a verdict, and the default 8 made embedded-comments' paste 74 s).
 */
const PASTE_ROUNDS = 2;

/** The lines a user types before pasting a step's script: its smoke sizes and constants, and ROUNDS where the script reads it. */
function sizeLines(scenario, step, script) {
  const rounds = /\bROUNDS\b/.test(script) ? { ROUNDS: PASTE_ROUNDS } : {};
  const vars = { ...(step.constants || {}), ...Object.fromEntries((step.params || []).map((p) => [p, scenario.sizes.smoke[p]])), ...rounds };
  return Object.entries(vars).map(([k, v]) => `var ${k} = ${JSON.stringify(v)};`).join('\n');
}

/** Pastes text into `mongosh URI --quiet`; resolves to { code, output }. */
function paste(uri, text, home) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MONGOSH, uri, '--quiet'], { env: { ...process.env, HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(`${text}\n`);
  });
}

describe('every script pasted into a mongosh prompt', function () {
  this.timeout(180000);
  let server;
  let home;
  const kind = unavailableReason('ferretdb-pg') ? 'ferretdb' : 'ferretdb-pg';

  before(async function () {
    this.timeout(120000);
    const why = process.env.CLASSICS_TEST_URI ? null : unavailableReason(kind);
    if (why) {
      process.stdout.write(`      skipped (${kind}): ${why}\n`);
      this.skip();
    }
    server = await startTestServer(kind);
    // a mongosh home of the test's own: the user's ~/.mongodb is not read, and no log is kept
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-paste-home-'));
    fs.mkdirSync(path.join(home, '.mongodb', 'mongosh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.mongodb', 'mongosh', 'config'), JSON.stringify({ disableLogging: true }));
  });

  after(async () => {
    if (server) await server.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('finds the scenarios by reading shell/', () => assert.ok(scenarios.length >= 1));

  const pasteStep = (scenario, step, again = false) => async () => {
    const script = fs.readFileSync(path.join(scenario.dir, step.script), 'utf8');
    const { output } = await paste(server.uri, `${sizeLines(scenario, step, script)}\n${script}`, home);
    const errors = output.split('\n').filter((l) => ERROR_LINE.test(l));
    assert.deepEqual(errors, [], `${scenario.name}/${step.script}${again ? ' pasted a second time' : ''} printed errors:\n${output.slice(-3000)}`);
    const measurements = output.split('\n').filter((l) => l.includes('{"scenario":'));
    assert.ok(measurements.length > 0, `${scenario.name}/${step.script} printed no measurement:\n${output.slice(-3000)}`);
    for (const line of measurements) JSON.parse(line.slice(line.indexOf('{"scenario":')));
  };

  for (const scenario of scenarios) {
    for (const step of scenario.steps) {
      it(`${scenario.name}: ${step.script} (step ${step.name}) pastes cleanly`, pasteStep(scenario, step));
    }
    it(`${scenario.name}: ${scenario.steps[0].script} pastes cleanly a second time`, pasteStep(scenario, scenario.steps[0], true));
  }
});
