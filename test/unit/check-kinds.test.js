'use strict';
// The check kinds' registry (orchestrator/analysis/checks/): each kind one file with every part
// the rest of the kit asks of it, and no other file telling kinds apart by name; judge.js keeps
// what every kind shares, and no orchestrator file outgrows what one reader holds.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { KINDS, CHECK_KINDS, kindOf } = require('../../orchestrator/analysis/checks');

const ORCHESTRATOR = path.join(__dirname, '..', '..', 'orchestrator');
const CHECKS = path.join(ORCHESTRATOR, 'analysis', 'checks');
const jsFiles = (dir) => fs.readdirSync(dir, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? jsFiles(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
const linesOf = (file) => fs.readFileSync(file, 'utf8').split('\n').length - 1;

describe('the check kinds', () => {
  it('are one list, each kind in a file of its own with its rule, words, judgement and the fields its verdict carries', () => {
    assert.deepEqual(CHECK_KINDS, ['ratio', 'near', 'growth', 'crossing', 'publishedOnly']);
    for (const kind of KINDS) {
      assert.equal(kindOf(kind.kind), kind);
      for (const part of ['about', 'words', 'judge']) assert.ok(kind[part], `${kind.kind} has no ${part}`);
      assert.equal(typeof kind.decides, 'boolean', kind.kind);
      assert.ok(Array.isArray(kind.detailFields), `${kind.kind} says no detailFields`);
      const file = path.join(CHECKS, `${kind.kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.js`);
      assert.equal(require(file), kind, `${kind.kind} is not ${path.relative(ORCHESTRATOR, file)}`);
    }
    assert.equal(kindOf('guess'), null);
  });

  it('are told apart by name nowhere outside analysis/checks/', () => {
    const named = new RegExp(`kind (===|!==) '(${CHECK_KINDS.join('|')})'|\\[(\\s*'(${CHECK_KINDS.join('|')})',?)+\\]\\.includes`);
    const found = jsFiles(ORCHESTRATOR).filter((f) => !f.startsWith(CHECKS)).filter((f) => named.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(found.map((f) => path.relative(ORCHESTRATOR, f)), []);
  });

  it('leave judge.js what every kind shares, in at most 300 lines, and no orchestrator file over 600', () => {
    assert.ok(linesOf(path.join(ORCHESTRATOR, 'analysis', 'judge.js')) <= 300);
    const long = jsFiles(ORCHESTRATOR).map((f) => ({ file: path.relative(ORCHESTRATOR, f), lines: linesOf(f) })).filter((x) => x.lines > 600);
    assert.deepEqual(long, []);
  });
});
