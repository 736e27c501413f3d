'use strict';
// --resume: a run kept with --keep-data and stopped goes on where it stopped, on the same data;
// it refuses where the data no longer match, or where nothing was kept.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless } = require('../helpers/servers');

// ferretdb2 keeps its PostgreSQL's data in the run's folder too (bound into its root file system)
for (const kind of ['ferretdb-pg', 'ferretdb2']) describe(`--resume on ${kind}`, function () {
  this.timeout(300000);
  let out;

  before(async function () {
    skipUnless(this, kind);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-resume-'));
    fs.chmodSync(out, 0o755); // PostgreSQL, run as its own user, keeps its data below it
    const results = path.join(out, 'results.jsonl');
    // in mongosh, whose start takes over a second, so that a stop as pass 1 is recorded lands
    // before pass 2 writes anything (the kit's shell starts in a fifth of that: a stop there would
    // race its first writes, which the resume rightly refuses); the resume keeps the run's shell
    // at the size --size auto chose, which the resume must read back rather than probe again
    const first = await invokeOnFixture(['--server', kind, '--budget', '20s', '--passes', '3', '--keep-data', '--no-calibrate', '--shell', 'mongosh', '--out', out], {
      onSpawn: (child) => {
        // stop it as pass 1 is recorded: pass 2's shell is still starting, so nothing of it is written
        const timer = setInterval(() => {
          if (fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes(`"type":"step","scenario":"${fixture.name}","server":"${kind}","step":"pass","pass":1`)) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 50);
      },
    });
    assert.equal(first.code, 130, first.stderr + first.stdout);
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it('goes on from the next pass, over the kept data, and ends with every pass once', async () => {
    const { code, stderr } = await invokeOnFixture(['--resume', out]);
    assert.equal(code, 0, stderr);
    const run = readRun(out);
    for (const collection of [...fixture.collections]) {
      const ms = run.measurements.filter((m) => m.collection === collection);
      assert.deepEqual(ms.map((m) => m.pass), [0, 1, 2, 3]);
      assert.ok(ms.every((m) => m.countOk), 'counts follow on across the resume');
    }
    assert.equal(run.records.filter((r) => r.type === 'resume').length, 1);
    assert.equal(run.run.params.shell, 'mongosh', 'the resumed passes timed in the run\'s shell');
    const sizes = run.records.filter((r) => r.type === 'size');
    assert.equal(sizes.length, 1, 'the resume kept the size it recorded, without probing again (a new plan would be a new record)');
    const passes = run.measurements.filter((m) => m.step === 'pass');
    assert.ok(passes.length && passes.every((m) => m.inserted === sizes[0].sizes.INSERTS), 'every pass, before and after the resume, at the recorded size');

  });

  it('refuses where the server\'s data no longer match the last recorded pass', async () => {
    const file = path.join(out, 'results.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const i = lines.findLastIndex((l) => l.includes('"type":"measurement"'));
    const m = JSON.parse(lines[i]);
    m.count += 7;
    lines[i] = JSON.stringify(m);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const { code, stderr } = await invokeOnFixture(['--resume', out]);
    assert.equal(code, 2, stderr);
    assert.match(stderr.trim(), new RegExp(`^ResumeMismatchError: server '${kind}' no longer holds the data of pass 3 of ${fixture.name}: ${m.collection} has ${m.count - 7} documents, the results recorded ${m.count}$`));
  });

  it('refuses a run whose servers kept no data', async () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-resume-plain-'));
    try {
      fs.writeFileSync(path.join(plain, 'results.jsonl'), `${JSON.stringify({ type: 'run', runId: 'x', params: { scenarios: [fixture.name], servers: ['ferretdb'], size: 'smoke', passes: { [fixture.name]: 3 }, keepData: false } })}\n`);
      const { code, stderr } = await invokeOnFixture(['--resume', plain]);
      assert.equal(code, 2);
      assert.match(stderr.trim(), /^UsageError: --resume: server 'ferretdb' was started by the kit without --keep-data, so its data is gone/);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});
