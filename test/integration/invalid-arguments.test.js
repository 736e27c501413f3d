'use strict';
// Bad input: one line naming the problem and what is accepted, exit code 2, no stack trace,
// nothing started (mocha's invalid-arguments.spec asserts the message, not just the code).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { newTag, processesWithTag, leftAfter } = require('../helpers/processes');

const unwritable = path.join(os.tmpdir(), `classics-not-a-dir-${process.pid}`);

const cases = [
  [['--passes', '0'], /--passes.*Not a whole number of at least 1/],
  [['--passes', '-3'], /--passes.*Not a whole number of at least 1/],
  [['--passes', 'many'], /--passes.*Not a whole number of at least 1/],
  [['--rounds', '1'], /--rounds.*Not a whole number from 2 to 1000/],
  [['--rounds', 'eight'], /--rounds.*Not a whole number from 2 to 1000/],
  [['--size', 'huge'], /Allowed choices are auto, smoke, quick, article/],
  [['--budget', 'soon'], /--budget.*Not a duration of at least 1s, such as 90s, 5m or 1m30s/],
  [['--budget', '0s'], /--budget.*Not a duration of at least 1s/],
  [['--size', 'smoke', '--budget', '90s'], /--budget applies to --size auto; --size smoke runs the sizes its name gives/],
  [['--size', 'quick', '--size-per-server'], /--size-per-server applies to --size auto/],
  [['no-such-scenario'], new RegExp(`unknown scenario 'no-such-scenario' \\(known: .*${fixture.name}`)],
  [['--server', 'oracle'], /unknown server spec 'oracle' \(accepted: embedded, mongod/],
  [['--server', 'x=postgres://h/db'], /'x': 'postgres:\/\/h\/db' is not a mongodb:\/\/ or mongodb\+srv:\/\/ URI/],
  [['--server', 'x=mongodb://'], /malformed URI/],
  [['--server', 'x=mongodb://alice:s3cret@127.0.0.1:1/'], /server 'x' at mongodb:\/\/alice:\*\*\*\*@127\.0\.0\.1:1\/ did not answer within 8 s/],
  [['--out', path.join(unwritable, 'sub')], /--out .* cannot be written/],
  [['--seed', 'abc'], /--seed.*Not a whole number/],
  [['report', path.join(os.tmpdir(), 'classics-no-such-run')], /holds no results\.jsonl/],
  [['--bogus'], /unknown option '--bogus'/],
  [['--format', 'summary.md,html'], /^UnknownFormatError: --format "html": run writes no such output; choose from results\.csv, verdicts\.json, charts, summary\.md, report\.html, verdicts\.png, first-screen\.png \(a comma list\)$/],
  [['compare', os.tmpdir(), os.tmpdir(), '--format', ','], /^UnknownFormatError: --format ",": names no output; choose from compare\.md, charts/],
  [['figures', '--format', 'figures.png'], /^UnknownFormatError: --format "figures\.png": figures writes no such output; choose from figures\.md, charts/],
  [['--lean', 'maybe'], /Allowed choices are on, off/],
  [['--shell', 'mongosh', '--lean', 'off'], /--lean off: the lean path is the kit's shell's; mongosh has none/],
];

describe('bad input', function () {
  this.timeout(30000);
  before(() => fs.writeFileSync(unwritable, 'a file where --out expects a folder'));
  after(() => fs.rmSync(unwritable, { force: true }));

  for (const [args, message] of cases) {
    it(`orchestrate ${args.join(' ')}`, async () => {
      const tag = newTag();
      const started = Date.now();
      const { code, stdout, stderr } = await invokeOnFixture(args, { env: tag });
      assert.equal(code, 2, `exit code; stderr: ${stderr}`);
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
      assert.match(lines[0], message);
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
      assert.doesNotMatch(stdout + stderr, /s3cret/, 'no password');
      assert.ok(Date.now() - started < 15000, 'answers within 15 s');
      assert.deepEqual(await leftAfter(tag), [], 'nothing left running');
    });
  }

  it('orchestrate --server x=URI of a server that refuses the login: says so from the server\'s code (18), not its words', async () => {
    const { startInstantServer } = require('../../bench/instant-server');
    const server = await startInstantServer({ refuseLogins: true });
    try {
      const tag = newTag();
      const { code, stdout, stderr } = await invokeOnFixture(['--server', `x=mongodb://alice:s3cret@127.0.0.1:${server.port}/`], { env: tag });
      assert.equal(code, 2, `exit code; stderr: ${stderr}`);
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
      assert.match(lines[0], new RegExp(`server 'x' at mongodb://alice:\\*\\*\\*\\*@127\\.0\\.0\\.1:${server.port}/ refused the credentials: `));
      assert.doesNotMatch(stdout + stderr, /s3cret/, 'no password');
      assert.deepEqual(await leftAfter(tag), [], 'nothing left running');
    } finally {
      await server.close();
    }
  });
});
