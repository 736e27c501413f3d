'use strict';
// The orchestrator and the benchmarks hold no knowledge of one article: what they need of a
// scenario, its scenario.json and published.json declare (docs/architecture.md: adding an article
// is adding a folder). So no code line under orchestrator/ or bench/ names a scenario folder, one
// of its scripts or modules, its database, or a finding id; comments may, to explain.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenarioDirs } = require('../../orchestrator/scenarios');
const { codeOnly, codeFiles, ROOT } = require('../helpers/code-lines');

const CODE_DIRS = ['orchestrator', 'bench'];

/** What names one article: its folder, its scripts and modules, its database, its finding ids. */
function scenarioNames() {
  return scenarioDirs(path.join(ROOT, 'shell')).flatMap((dir) => {
    const descriptor = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
    const published = JSON.parse(fs.readFileSync(path.join(dir, descriptor.published || 'published.json'), 'utf8'));
    return [
      path.basename(dir),
      descriptor.database,
      ...descriptor.steps.map((s) => s.script),
      ...(descriptor.baseline ? [descriptor.baseline.module] : []),
      ...published.findings.map((f) => f.id),
    ].filter(Boolean);
  });
}

/** A name as a whole token: not part of a longer name or path (log-inserts, not log-inserts-2). */
const tokenOf = (name) => new RegExp(`(?<![\\w.$-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$-])`);

/** `file:line: name` for each code line of the files that names one of names. */
function namedIn(files, names) {
  const tokens = [...new Set(names)].map((name) => [name, tokenOf(name)]);
  return files.flatMap((file) => codeOnly(fs.readFileSync(path.resolve(ROOT, file), 'utf8')).split('\n').flatMap((line, i) => (
    tokens.filter(([, token]) => token.test(line)).map(([name]) => `${file}:${i + 1}: ${name}`))));
}

describe('no article named in the orchestrator or the benchmarks', () => {
  it('reads the code of a file without its comments, its strings and regular expressions kept', () => {
    const text = [
      "const a = 'x // not a comment'; // a comment naming log-inserts",
      '/* a block',
      '   naming many-keys */ const b = /\\/\\*not a comment/.test(c) ? `t ${d}` : e / 2; // f',
      "return /'/.test(x) && 'log-inserts';",
    ].join('\n');
    assert.deepEqual(codeOnly(text).split('\n').map((l) => l.trim()), [
      "const a = 'x // not a comment';",
      '',
      'const b = /\\/\\*not a comment/.test(c) ? `t ${d}` : e / 2;',
      "return /'/.test(x) && 'log-inserts';",
    ]);
  });

  it('finds a scenario\'s name in a code line, and not in a longer name or a comment', () => {
    const names = scenarioNames();
    // every folder, script, database and finding id of every scenario (5 articles today)
    assert.ok(names.length >= 5 * 3, names.join(', '));
    const [folder] = names;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-names-'));
    const file = path.join(dir, 'code.js');
    fs.writeFileSync(file, [`const x = ['${folder}'];`, `// ${folder}`, `const y = '${folder}-2';`].join('\n'));
    try {
      assert.deepEqual(namedIn([file], [folder]), [`${file}:1: ${folder}`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no code line under orchestrator/ or bench/ names a scenario, its scripts, its database or its findings', () => {
    const files = codeFiles(CODE_DIRS);
    assert.ok(files.length > 50, `only ${files.length} files found under ${CODE_DIRS.join(', ')}`);
    assert.deepEqual(namedIn(files, scenarioNames()), [], 'declare what the code needs in the scenario\'s scenario.json (its schema says each field) and read it there');
  });
});
