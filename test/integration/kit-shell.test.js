'use strict';
// The kit's own shell against mongosh, on a real server (FerretDB): the same script prints the
// same lines, the same errors and the same exit status in both; a method the kit's shell lacks
// stops the script with one line naming it, which no try/catch swallows, and `orchestrate run`
// passes that line on and says which shell to use instead. (Every scenario's measurements under
// both shells are compared by the scenario suites: test/helpers/scenario-suite.js.)
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runShell } = require('../helpers/kit-shell');
const { skipUnless, startTestServer } = require('../helpers/servers');
const { fixture, FIXTURE_SHELL_DIR } = require('../helpers/fixture');
const { invokeOrchestrate } = require('../helpers/cli');
const { readRun } = require('../../orchestrator/results/reader');

const PROBE = path.resolve(__dirname, '..', 'fixtures', 'kit-shell', 'probe.js');
const UNSUPPORTED_LINE = /^KitShellUnsupported: Collection\.mapReduce is not in the kit's shell; run this script with --shell mongosh$/;

describe('the kit\'s shell beside mongosh, on ferretdb', function () {
  this.timeout(180000);
  let server;

  before(async function () {
    skipUnless(this, 'ferretdb');
    server = await startTestServer('ferretdb');
  });
  after(async () => { if (server) await server.stop(); });

  it('prints what mongosh prints for the probe script (results, errors, BSON types, printing, its uncaught end), on its lean path and with --lean off', async () => {
    const mongosh = await runShell('mongosh', { uri: server.uri, file: PROBE });
    assert.ok(mongosh.stdout.split('\n').length > 100, `the probe ran in mongosh: ${mongosh.stderr}`);
    for (const lean of ['on', 'off']) {
      const kit = await runShell('kit', { uri: server.uri, file: PROBE, lean });
      assert.equal(kit.stdout, mongosh.stdout, `--lean ${lean}`);
      assert.equal(kit.stderr, mongosh.stderr, `--lean ${lean}`);
      assert.equal(kit.code, mongosh.code, `--lean ${lean}`);
      const leanCalls = Object.values(kit.calls.lean).reduce((a, b) => a + b, 0);
      assert.ok(lean === 'on' ? leanCalls > 20 : leanCalls === 0, `--lean ${lean}: ${JSON.stringify(kit.calls)}`);
    }
    assert.equal(mongosh.code, 1, 'the probe ends with an uncaught ReferenceError');
  });

  it('keeps the variables given before the script and the code given to quit()', async () => {
    const code = 'print(N + 1, typeof S, S); if (N === 41) quit(3); print("not reached");';
    for (const shell of ['kit', 'mongosh']) {
      const r = await runShell(shell, { uri: server.uri, vars: { N: 41, S: 'x' }, code });
      assert.equal(r.stdout, 'test\n42 string x\n', shell);
      assert.equal(r.code, 3, shell);
    }
  });

  it('stops at a method it lacks with one line naming it, which try/catch does not swallow', async () => {
    const code = [
      'var c = db.getSiblingDB("classics_kit_shell_probe").items;',
      'print("before");',
      'try { c.mapReduce(function () {}, function () {}, { out: { inline: 1 } }); } catch (e) { print("caught " + e.message); }',
      'print("after");',
    ].join('\n');
    const r = await runShell('kit', { uri: server.uri, code });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'test\nbefore\n');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], UNSUPPORTED_LINE);
  });
});

describe('orchestrate run on the kit\'s shell, a script calling what it lacks', function () {
  this.timeout(120000);
  let dir;
  let out;
  let result;

  before(async function () {
    skipUnless(this, 'ferretdb');
    // the fixture scenario, its pass script ending with a method the kit's shell lacks
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-kit-shell-unsupported-'));
    fs.cpSync(FIXTURE_SHELL_DIR, dir, { recursive: true });
    const [name] = fs.readdirSync(dir);
    fs.appendFileSync(path.join(dir, name, 'pass.js'), '\ndb.getCollection("left").mapReduce(function () {}, function () {}, { out: { inline: 1 } });\n');
    out = path.join(dir, 'out');
    result = await invokeOrchestrate(['--server', 'ferretdb', '--size', 'smoke', '--passes', '1', '--no-calibrate', '--out', out], { env: { CLASSICS_SHELL_DIR: dir } });
  });
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

  it('fails the step with the one line, naming the method and --shell mongosh', () => {
    assert.notEqual(result.code, 0);
    const said = `${result.stdout}${result.stderr}`;
    assert.match(said, new RegExp(`FAILED ferretdb · ${fixture.name} · pass 1/1: .* KitShellUnsupported: Collection\\.mapReduce is not in the kit's shell; run this script with --shell mongosh\n`));
    assert.doesNotMatch(said, /\n\s+at /, 'no stack trace');
  });

  it('keeps what was measured before it and records the failure', () => {
    const run = readRun(out);
    assert.ok(run.measurements.length > 0, 'the set-up and the pass were measured');
    assert.ok(run.failures.some((f) => /mapReduce/.test(f.error ?? f.message ?? JSON.stringify(f))), JSON.stringify(run.failures));
  });
});
