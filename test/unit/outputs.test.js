'use strict';
// Outputs as bytes in memory (report/outputs.js): exporters render bytes, writeOutputs writes them
// whole, --format chooses which are written (the kept examples, re-rendered through them:
// test/integration/outputs.test.js).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { renderOutputs, writeOutputs, parseFormats, defaultFormats } = require('../../orchestrator/report/outputs');
const { EXPORTERS } = require('../../orchestrator/report/exporters');
const { COMPARE_EXPORTERS } = require('../../orchestrator/report/compare');
const { FIGURE_EXPORTERS } = require('../../orchestrator/report/figures');
const { UnknownFormatError, UsageError, DiskWriteError } = require('../../orchestrator/errors');

const ROOT = path.resolve(__dirname, '..', '..');

/** Every output a generator yields, flattened. */
async function all(generator) {
  const out = [];
  for await (const outputs of generator) out.push(...outputs);
  return out;
}

describe('outputs as bytes: writeOutputs and --format', () => {
  let root;
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-outputs-')); });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  // crafted exporters: b embeds a's bytes; c is optional
  const calls = [];
  const CRAFTED = [
    { format: 'a.txt', render: async () => { calls.push('a'); return [{ file: 'a.txt', bytes: Buffer.from('A') }]; } },
    { format: 'b.txt', needs: ['a.txt'], render: async (s, rendered) => { calls.push('b'); return [{ file: 'b.txt', bytes: Buffer.from(`B(${rendered.get('a.txt')[0].bytes})`) }]; } },
    { format: 'c.txt', optional: true, render: async () => { calls.push('c'); return [{ file: 'c.txt', bytes: Buffer.from('C') }]; } },
  ];

  it('writeOutputs writes each output whole under its name and returns the names, leaving no temporary file', () => {
    const names = writeOutputs([{ file: 'x.bin', bytes: Buffer.from([0, 1, 2, 255]) }, { file: 'y.md', bytes: Buffer.from('é\n') }], root);
    assert.deepEqual(names, ['x.bin', 'y.md']);
    assert.deepEqual([...fs.readFileSync(path.join(root, 'x.bin'))], [0, 1, 2, 255]);
    assert.equal(fs.readFileSync(path.join(root, 'y.md'), 'utf8'), 'é\n');
    assert.deepEqual(fs.readdirSync(root).sort(), ['x.bin', 'y.md']);
  });

  it('writeOutputs names the file it could not write, in one line', () => {
    const missing = path.join(root, 'no-such-folder');
    assert.throws(() => writeOutputs([{ file: 'x.bin', bytes: Buffer.from('x') }], missing),
      (err) => err instanceof DiskWriteError && err.file === path.join(missing, 'x.bin') && !err.message.includes('\n'));
  });

  it('renders by default every format but the optional, in the list\'s order', async () => {
    calls.length = 0;
    const out = await all(renderOutputs(CRAFTED, null));
    assert.deepEqual(out.map((o) => [o.file, String(o.bytes), o.format]), [['a.txt', 'A', 'a.txt'], ['b.txt', 'B(A)', 'b.txt']]);
    assert.deepEqual(calls, ['a', 'b']);
  });

  it('renders what a chosen format embeds without yielding it, and only what is chosen or embedded', async () => {
    calls.length = 0;
    const out = await all(renderOutputs(CRAFTED, null, ['b.txt']));
    assert.deepEqual(out.map((o) => [o.file, String(o.bytes)]), [['b.txt', 'B(A)']]);
    assert.deepEqual(calls, ['a', 'b']);
    calls.length = 0;
    assert.deepEqual((await all(renderOutputs(CRAFTED, null, ['c.txt']))).map((o) => o.file), ['c.txt']);
    assert.deepEqual(calls, ['c']);
  });

  it('--format takes a comma list in any order, once each; an unknown or empty one is an UnknownFormatError naming the choices', () => {
    assert.deepEqual(parseFormats(' b.txt,a.txt ,b.txt', CRAFTED, 'x'), ['b.txt', 'a.txt']);
    for (const bad of ['html', 'a.txt,html', '', ' , ']) {
      assert.throws(() => parseFormats(bad, CRAFTED, 'report'), (err) => err instanceof UnknownFormatError && err instanceof UsageError
        && err.exitCode === 2 && /choose from a\.txt, b\.txt, c\.txt/.test(err.message) && !err.message.includes('\n'), bad);
    }
    assert.match(new UnknownFormatError({ command: 'report', format: 'html', known: ['report.html'] }).message, /^--format "html": report writes no such output; choose from report\.html/);
    assert.match(new UnknownFormatError({ command: 'report', format: ' , ', known: ['report.html'] }).message, /^--format " , ": names no output; choose from report\.html/);
  });

  it('each command\'s exporters name their formats once: the report\'s files, compare\'s and the figures\'', () => {
    const formats = (list) => list.map((e) => e.format);
    assert.deepEqual(formats(EXPORTERS), ['results.csv', 'verdicts.json', 'charts', 'summary.md', 'report.html', 'verdicts.png', 'first-screen.png']);
    assert.deepEqual(defaultFormats(EXPORTERS), ['results.csv', 'verdicts.json', 'charts', 'summary.md', 'report.html', 'verdicts.png']);
    assert.deepEqual(formats(COMPARE_EXPORTERS), ['compare.md', 'charts']);
    assert.deepEqual(formats(FIGURE_EXPORTERS), ['figures.md', 'charts']);
    for (const list of [EXPORTERS, COMPARE_EXPORTERS, FIGURE_EXPORTERS]) assert.equal(new Set(formats(list)).size, list.length);
  });

  it('report.html and page.js read no file: neither loads fs', () => {
    for (const file of ['orchestrator/report/html.js', 'orchestrator/report/page.js', 'orchestrator/report/exporters.js']) {
      assert.doesNotMatch(fs.readFileSync(path.join(ROOT, file), 'utf8'), /require\('(node:)?fs'\)/, file);
    }
  });
});
