'use strict';
// Verdicts on crafted results. Every finding in every scenario's published.json must have a case
// for each outcome it can come to (holds, does not hold, inconclusive, and cannot be tested here
// where what it needs is missing), in its folder's test/verdict-cases.js, so a finding added
// without tests fails here. Repeats are tried on the fixture scenario.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { judge, verdictsFor, verdictsMarkdown, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY } = require('../../orchestrator/report/verdicts');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const scenarioOf = (name) => scenarios.find((s) => s.name === name);
const SERVER = 's';
const { fixture } = require('../helpers/fixture');

/** Each scenario's crafted cases (shell/<name>/test/verdict-cases.js): { cases, tooSmall }. */
function casesOf(scenario) {
  const file = path.join(scenario.dir, 'test', 'verdict-cases.js');
  return fs.existsSync(file) ? require(file) : { cases: {}, tooSmall: [] };
}

/**
 * The verdict of one finding on crafted records, through the same path a report takes, at the
 * sizes given (the article's by default: crafted records are mostly the article's own figures).
 */
function verdictOn(scenarioName, id, { records, server = SERVER, sizes = null }) {
  const scenario = scenarioOf(scenarioName) ?? fixture;
  const measurements = records.map((r) => ({ scenario: scenarioName, server: SERVER, ...r }));
  const found = verdictsFor([scenario], measurements, () => sizes ?? scenario.sizes.article).filter((v) => v.finding.id === id && v.server === server);
  assert.equal(found.length, 1, `${scenarioName}/${id}: one verdict on ${server}, got ${found.map((v) => v.server).join(', ') || 'none'}`);
  return found[0];
}

describe('verdicts', () => {
  it('every finding of every scenario names its claim, the article\'s figure and how it is decided', () => {
    const missing = [];
    for (const s of scenarios) {
      for (const f of s.loadPublished().findings || []) {
        for (const field of ['id', 'claim', 'published', 'decidedBy', 'check']) if (!f[field]) missing.push(`${s.name}/${f.id}: ${field}`);
        if (f.check?.kind === 'publishedOnly' && !f.check.reason) missing.push(`${s.name}/${f.id}: a published-only finding says why it cannot be measured`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(scenarios.every((s) => (s.loadPublished().findings || []).length > 0), 'every article has findings');
  });

  it('every checked finding has a crafted case for every outcome (a new finding needs its tests)', () => {
    const missing = [];
    for (const s of scenarios) {
      for (const f of (s.loadPublished().findings || []).filter((x) => x.check.kind !== 'publishedOnly')) {
        for (const outcome of [HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE]) if (!casesOf(s).cases[f.id]?.[outcome]) missing.push(`${s.name}/${f.id}: ${outcome}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  for (const s of scenarios) {
    for (const f of s.loadPublished().findings || []) {
      describe(`${s.name} · ${f.id}`, () => {
        if (f.check.kind === 'publishedOnly') {
          it('is shown as the article published it, with why it cannot be run', () => {
            const v = verdictOn(s.name, f.id, { records: [], server: 'the article\'s' });
            assert.equal(v.status, PUBLISHED_ONLY);
            assert.equal(v.measured, f.check.reason);
          });
          return;
        }
        for (const outcome of [HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE]) {
          const c = casesOf(s).cases[f.id]?.[outcome];
          if (!c) continue;
          it(outcome, () => {
            const v = verdictOn(s.name, f.id, c);
            assert.equal(v.status, outcome, v.measured);
            if (c.measured) assert.match(v.measured, c.measured);
          });
        }
      });
    }
  }

  for (const s of scenarios) {
    for (const [id, records, pattern, { server, sizes } = {}] of casesOf(s).tooSmall) {
      it(`${s.name} · ${id}: cannot be tested at a size too small to show it`, () => {
        const v = verdictOn(s.name, id, { records, server, sizes });
        assert.equal(v.status, UNTESTABLE);
        assert.match(v.measured, pattern);
      });
    }
  }

  // a fast server's w:0 send clock times the shell, not the server: each finding decided on the
  // applied time comes out otherwise than its send time would say, names its clock, and shows the
  // article's clock beside it
  for (const s of scenarios) {
    for (const [id, records, outcome, pattern] of casesOf(s).sendClockOnly || []) {
      it(`${s.name} · ${id}: decided on the applied time where only the send clock is fast`, () => {
        const finding = s.loadPublished().findings.find((f) => f.id === id);
        assert.equal(finding.clock?.decides.startsWith('applied'), true, `${id} names its clock`);
        const v = verdictOn(s.name, id, { records });
        assert.equal(v.status, outcome, v.measured);
        assert.match(v.measured, pattern);
        const onSend = judge({ ...finding, clock: undefined, check: { ...finding.check, field: finding.clock.article } }, records.map((r) => ({ server: SERVER, ...r })).filter((r) => r.server === SERVER), records.map((r) => ({ server: SERVER, ...r })));
        assert.notEqual(onSend.status, outcome, `the send time alone would say ${onSend.status}: ${onSend.measured}`);
      });
    }
  }

  it('names its clocks in words, never a field of the records', () => {
    for (const s of scenarios) {
      for (const [id, records] of casesOf(s).sendClockOnly || []) {
        const v = verdictOn(s.name, id, { records });
        assert.doesNotMatch(v.measured, /appliedSeconds|appliedMs|\bseconds \d|\bms \d|hrMs/, `${s.name}/${id}: ${v.measured}`);
      }
    }
  });

  it('holds a threshold on the cache to every server among the records, not the one that missed most', () => {
    const tc = scenarioOf('trade-candles');
    const finding = tc.loadPublished().findings.find((f) => f.id === 'little-memory-slower');
    const { lowMemory } = require('../../shell/trade-candles/test/verdict-cases');
    const on = (server, pages) => lowMemory(2, 'applied', 1.5, 'why', pages).map((r) => ({ ...r, server }));
    const both = [...on('a', 180), ...on('b', 0.2)];
    const v = judge(finding, both, both, { descriptor: tc, sizes: tc.sizes.article });
    assert.equal(v.status, UNTESTABLE, v.measured);
    assert.match(v.measured, /cannot be decided: the reads were served from the cache \(pages read into the cache per query 0\.2 on b, reads that miss/);
    const missedBoth = [...on('a', 180), ...on('b', 12)];
    assert.equal(judge(finding, missedBoth, missedBoth, { descriptor: tc, sizes: tc.sizes.article }).status, HOLDS);
  });

  // the smallest size each finding needs lives in its scenario's descriptor (scaling.findings)
  for (const s of scenarios) {
    for (const [id, need] of Object.entries(s.scaling.findings || {})) {
      const holds = casesOf(s).cases[id]?.[HOLDS];
      if (!holds) continue;
      it(`${s.name} · ${id}: cannot be tested below the size its descriptor declares, and can at it`, () => {
        const [name, least] = Object.entries(need.atLeast)[0];
        const small = verdictOn(s.name, id, { records: holds.records, sizes: { ...s.sizes.article, ...need.atLeast, [name]: least - 1 } });
        assert.equal(small.status, UNTESTABLE);
        assert.match(small.measured, new RegExp(`the size is too small: ${name} ${(least - 1).toLocaleString('en-US')}, it needs ${least.toLocaleString('en-US')}`));
        assert.equal(verdictOn(s.name, id, { records: holds.records, sizes: { ...s.sizes.article, ...need.atLeast } }).status, HOLDS);
      });
    }
  }

  describe('spans too short to decide from', () => {
    // many-keys' finding is a ratio of two spans; log-inserts' test 2 declares a longer minimum than the default
    it('makes a verdict inconclusive where a figure it rests on is a few milliseconds', () => {
      const { mk } = require('../../shell/many-keys/test/verdict-cases');
      const short = verdictOn('many-keys', 'buckets-faster', { records: mk(0.05, 0.004) });
      assert.equal(short.status, INCONCLUSIVE);
      assert.match(short.measured, /12\.50×.*the span was too short to decide \(update original 50 ms, update bucket 4 ms, under the 100 ms a verdict needs/);
      assert.equal(verdictOn('many-keys', 'buckets-faster', { records: mk(5, 0.4) }).status, HOLDS);
    });

    it('holds a step to the span its descriptor declares', () => {
      const logInserts = scenarioOf('log-inserts');
      const test2 = logInserts.scaling.spans.test2.minMs;
      const rec = (method, ms) => ({ scenario: 'log-inserts', server: SERVER, step: 'test2', method, ms, appliedMs: ms, collection: `log_${method}` });
      const verdict = (scale) => verdictsFor([logInserts], [rec('save', 3 * scale), rec('insert', scale)], () => logInserts.sizes.article)
        .find((v) => v.finding.id === 'insert-beats-save');
      assert.equal(verdict(test2 / 2).status, INCONCLUSIVE);
      assert.match(verdict(test2 / 2).measured, new RegExp(`under the ${test2.toLocaleString('en-US')} ms`));
      assert.equal(verdict(test2).status, HOLDS);
    });
  });

  it('every server kind a scenario declares names findings it has, with a reason', () => {
    const problems = [];
    for (const s of scenarios) {
      const ids = new Set((s.loadPublished().findings || []).map((f) => f.id));
      if (!s.servers || !Object.keys(s.servers).length) problems.push(`${s.name}: declares no servers`);
      for (const [kind, decl] of Object.entries(s.servers || {})) {
        if (!/^(ferretdb|ferretdb-pg|ferretdb2|mongod(:\w+)?)$/.test(kind)) problems.push(`${s.name}: unknown server kind ${kind}`);
        for (const [id, reason] of Object.entries(decl.cannotTest || {})) {
          if (!ids.has(id)) problems.push(`${s.name}: ${kind} names ${id}, which is no finding of it`);
          if (typeof reason !== 'string' || reason.length < 20) problems.push(`${s.name}: ${kind} gives no reason for ${id}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('repeats', () => {
  const { aggregateRepeats, median, coefficientOfVariation } = require('../../orchestrator/results/repeats');
  const rec = (repeat, pass, ms, extra = {}) => ({ scenario: fixture.name, server: 's', step: 'pass', pass, collection: 'right', hrMs: ms, repeat, ...extra });

  it('takes medians and spreads, drops the warm-up, and keeps a check only if every run passed it', () => {
    const out = aggregateRepeats([
      rec(0, 1, 999, { warmup: true }), rec(1, 1, 10, { countOk: true }), rec(2, 1, 30, { countOk: false }), rec(3, 1, 20, { countOk: true }),
      rec(1, 2, 5), rec(2, 2, 5), rec(3, 2, 8),
    ], fixture);
    assert.equal(out.length, 2);
    assert.equal(out[0].hrMs, 20);
    assert.deepEqual([out[0].spread.hrMs.min, out[0].spread.hrMs.max, out[0].spread.hrMs.n], [10, 30, 3]);
    assert.equal(out[0].countOk, false);
    assert.equal(out[1].hrMs, 5);
    assert.equal(out[0].repeat, undefined);
  });

  it('leaves a single run alone', () => {
    const one = [rec(undefined, 1, 10)];
    assert.deepEqual(aggregateRepeats(one, fixture), one);
  });

  it('computes median and coefficient of variation', () => {
    assert.equal(median([3, 1, 2, 10]), 2.5);
    assert.ok(Math.abs(coefficientOfVariation([1, 3]) - 0.5) < 1e-12);
  });

  it('makes a verdict inconclusive where the repeats overlap its margin', () => {
    // the fixture's same-speed finding: right within 25% of left holds, past 50% does not
    const r = (repeat, left, right) => [['left', left], ['right', right]]
      .map(([collection, hrMs]) => ({ scenario: fixture.name, server: 's', step: 'pass', pass: 1, collection, hrMs, repeat }));
    const sameSpeed = (records) => verdictsFor([fixture], records).find((v) => v.finding.id === 'same-speed');
    const steady = sameSpeed([...r(1, 100, 101), ...r(2, 100, 104), ...r(3, 100, 99)]);
    assert.equal(steady.status, HOLDS);
    const shaky = sameSpeed([...r(1, 100, 101), ...r(2, 100, 190), ...r(3, 100, 99)]);
    assert.equal(shaky.status, INCONCLUSIVE);
    assert.match(shaky.measured, /the repeats overlap the margin/);
    assert.ok(judge);
  });
});

describe('verdict text in markdown', () => {
  const { markdownText } = require('../../orchestrator/report/format');
  const { marked } = require('marked');

  it('keeps a server\'s words as they are: no emphasis from `_id_`, no cell split by a pipe', () => {
    const measured = 'FerretDB: PostgreSQL Index Scan on _id_; log_save_8a7d | SQLite SCAN';
    const html = marked.parse(`| a | b |\n|---|---|\n| x | ${markdownText(measured)} |`);
    assert.doesNotMatch(html, /<em>/);
    assert.match(html, /Index Scan on _id_; log_save_8a7d \| SQLite SCAN<\/td>/);
    assert.equal((html.match(/<td>/g) || []).length, 2);
  });
});
