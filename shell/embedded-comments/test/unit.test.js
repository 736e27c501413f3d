'use strict';
// The pure parts of bench.js, run in a VM context as mongosh would run them: the paired rounds'
// block (the order of the cells in each round), and the script's own cells block (which cells,
// each round's share of a cell's blogs with at least one blog a block, a cell's line as the sum
// of its blocks' lines); and the scenario's sizing expressions against the blocks the script
// runs, so the planner prices what the script does.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { parseExpression } = require('../../../orchestrator/sizing/expression');
const { stampedBlock } = require('../../../scripts/stamp');

const DIR = path.join(__dirname, '..');
const BENCH = fs.readFileSync(path.join(DIR, 'bench.js'), 'utf8');
const SCENARIO = JSON.parse(fs.readFileSync(path.join(DIR, 'scenario.json'), 'utf8'));

/** The text between `// --- name ...` and `// --- end name ---` in a script. */
function block(source, name) {
  const m = new RegExp(`// --- ${name}[^\\n]*\\n([\\s\\S]*?)// --- end ${name} ---`).exec(source);
  assert.ok(m, `no "${name}" block`);
  return m[1];
}

const f = vm.createContext({});
vm.runInContext(`${stampedBlock(BENCH, 'paired-rounds')}\n${block(BENCH, 'embedded-comments cells')}`, f);

/** A value made in the VM, as plain data of this realm (deepEqual compares prototypes). */
const plain = (value) => JSON.parse(JSON.stringify(value));

const key = (cell) => `${cell.mode} ${cell.layout} ${cell.perBlog}`;
const PER_BLOG = [1, 10, 100, 1000];
const cells = () => f.cellsOf(['unsafe', 'safe'], PER_BLOG);

describe('embedded-comments: the cells and their order in each round', () => {
  it('has every mode × layout × per blog once, in the article\'s order (unsafe table, then safe; embedded row, then separate)', () => {
    const all = plain(cells()).map(key);
    assert.equal(all.length, 2 * 2 * PER_BLOG.length);
    assert.deepEqual(all.slice(0, 5), ['unsafe embedded 1', 'unsafe embedded 10', 'unsafe embedded 100', 'unsafe embedded 1000', 'unsafe separate 1']);
    assert.equal(all.at(-1), 'safe separate 1000');
    assert.equal(new Set(all).size, all.length);
  });

  it('runs one block of every cell in each round, in an order drawn from the seed', () => {
    const orders = plain(f.roundOrders(cells(), 8, 20141105));
    assert.equal(orders.length, 8);
    const sorted = plain(cells()).map(key).sort();
    for (const order of orders) assert.deepEqual(order.map(key).sort(), sorted);
    assert.deepEqual(plain(f.roundOrders(cells(), 8, 20141105)), orders, 'the same seed draws the same order');
    assert.notDeepEqual(plain(f.roundOrders(cells(), 8, 7)).map((o) => o.map(key)), orders.map((o) => o.map(key)), 'another seed draws another');
    assert.notDeepEqual(orders[0].map(key), plain(cells()).map(key), 'not the article\'s fixed order');
  });

  it('mirrors each drawn round in the next, so every cell sits at the same mean position', () => {
    const orders = plain(f.roundOrders(cells(), 8, 3));
    for (let r = 0; r < 8; r += 2) assert.deepEqual(orders[r + 1].map(key), orders[r].map(key).reverse());
    const n = cells().length;
    for (const cell of plain(cells())) {
      const positions = orders.map((o) => o.findIndex((c) => key(c) === key(cell)) + 1);
      assert.equal(positions.reduce((a, b) => a + b, 0), 4 * (n + 1), `${key(cell)} at ${positions}`);
    }
  });
});

describe('embedded-comments: each round\'s share of a cell, at least one blog', () => {
  /** Every share a cell's blocks write: [{ from, to, blogs, comments }]. */
  const sharesOf = (total, perBlog, rounds) => plain(f.blockShares(total, perBlog, rounds))
    .map(([from, to]) => ({ from, to, blogs: to - from, comments: (to - from) * perBlog }));

  it('cuts the article\'s TOTAL / n blogs into ROUNDS shares as even as can be, in order, where there are enough', () => {
    const shares = sharesOf(1000, 1, 8);
    assert.deepEqual(shares.map((s) => s.blogs), [125, 125, 125, 125, 125, 125, 125, 125]);
    assert.deepEqual(sharesOf(100, 1, 8).map((s) => s.blogs), [13, 13, 13, 13, 12, 12, 12, 12]);
    assert.deepEqual(sharesOf(1000, 100, 8).map((s) => s.blogs), [2, 2, 1, 1, 1, 1, 1, 1]);
    for (const [total, n] of [[1000, 1], [100, 1], [1000, 100], [10000, 1000], [500, 10]]) {
      const all = sharesOf(total, n, 8);
      assert.equal(all[0].from, 0);
      all.slice(1).forEach((s, i) => assert.equal(s.from, all[i].to, `${total}/${n}: contiguous`));
      assert.equal(all.reduce((x, s) => x + s.comments, 0), total, `${total}/${n}: the article's TOTAL comments`);
    }
  });

  it('gives every block one blog at least: a cell of fewer blogs than rounds writes one a round, ROUNDS × n comments', () => {
    // the article's largest cell: one blog of 10,000 comments
    const largest = sharesOf(10000, 10000, 8);
    assert.deepEqual(largest.map((s) => [s.from, s.to]), [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8]]);
    assert.equal(largest.reduce((x, s) => x + s.comments, 0), 80000);
    // 5 blogs (500 comments at 100 per blog) over 8 rounds: 8 blogs, 800 comments
    assert.deepEqual(sharesOf(500, 100, 8).map((s) => s.blogs), [1, 1, 1, 1, 1, 1, 1, 1]);
    assert.equal(f.blogsInAll(500, 100, 8), 8);
    assert.equal(f.blogsInAll(1000, 100, 8), 10);
    for (const total of [10, 20, 50, 100, 1000, 10000]) {
      for (let n = 1; n <= total; n *= 10) {
        for (const rounds of [1, 2, 8, 16]) {
          const all = sharesOf(total, n, rounds);
          assert.equal(all.length, rounds);
          assert.ok(all.every((s) => s.blogs >= 1), `${total}/${n} in ${rounds} rounds: ${all.map((s) => s.blogs)}`);
          assert.equal(all.reduce((x, s) => x + s.blogs, 0), Math.max(total / n, rounds));
        }
      }
    }
  });
});

describe('embedded-comments: a cell\'s line adds up its blocks', () => {
  const blockLine = (over) => ({
    blogs: 2, comments: 20, seconds: 0.1, hrMs: 100.1, appliedSeconds: 0.2, appliedHrMs: 200.2,
    writtenBlogs: 2, writtenComments: 20, complete: true, refused: false, reason: null, ...over,
  });

  it('sums the clocks and counts, to the Date clock\'s ms and performance.now()\'s µs, without float dust', () => {
    const sums = plain(f.cellSums([blockLine({ seconds: 0.1, documentBytes: 100 }), blockLine({ seconds: 0.2, documentBytes: 300 }), blockLine({ seconds: 0.004, hrMs: 0.001 })]));
    assert.deepEqual(sums, {
      blocks: 3, blogs: 6, comments: 60, seconds: 0.304, hrMs: 200.201, appliedSeconds: 0.6, appliedHrMs: 600.6,
      writtenBlogs: 6, writtenComments: 60, complete: true, refused: false, reason: null, documentBytes: 300,
    });
  });

  it('is incomplete where a block is, and refused where a block was, with that block\'s reason and no time', () => {
    assert.equal(f.cellSums([blockLine(), blockLine({ writtenComments: 19, complete: false })]).complete, false);
    const refused = plain(f.cellSums([blockLine(), blockLine({ refused: true, reason: 'too large', seconds: null, appliedSeconds: null, appliedHrMs: null })]));
    assert.equal(refused.refused, true);
    assert.equal(refused.reason, 'too large');
    assert.equal(refused.seconds, null);
    assert.equal(refused.appliedSeconds, null);
    assert.equal(refused.appliedHrMs, null);
    assert.equal(refused.documentBytes, null, 'no blog sized: the separate layout');
  });
});

describe('embedded-comments: the planner prices the blocks the script runs', () => {
  const decl = SCENARIO.scaling.steps.bench;
  const expr = (name) => parseExpression(decl[name]);

  /** What the script does at these sizes, block by block: { ops (comments written), parts (blocks), grows }. */
  function work(total, rounds) {
    const perBlogs = [];
    for (let n = 1; n <= total; n *= 10) perBlogs.push(n);
    let ops = 0;
    let parts = 0;
    let grows = 0;
    for (const cell of plain(f.cellsOf(['unsafe', 'safe'], perBlogs))) {
      for (const [from, to] of plain(f.blockShares(total, cell.perBlog, rounds))) {
        const comments = (to - from) * cell.perBlog;
        ops += comments;
        parts += 1;
        if (cell.layout === 'embedded') grows += comments * cell.perBlog;
      }
    }
    return { ops, parts, grows };
  }

  it('declares its rounds and the fields that name a variant', () => {
    assert.equal(SCENARIO.rounds, 8);
    assert.deepEqual(SCENARIO.steps.find((s) => s.name === 'bench').variants, ['mode', 'layout', 'perBlog']);
  });

  it('counts ops, parts and grows as the blocks add up, at every size it may choose, for up to 100 rounds', () => {
    for (const total of SCENARIO.scaling.vary.TOTAL.values) {
      for (const rounds of [1, 2, 3, 8, 10, 11, 16, 50, 100]) {
        const done = work(total, rounds);
        for (const name of ['ops', 'parts', 'grows']) {
          assert.equal(expr(name).evaluate({ TOTAL: total, ROUNDS: rounds }), done[name], `${name} at TOTAL ${total}, ${rounds} rounds`);
        }
      }
    }
  });
});
