'use strict';
// The Verdict type (orchestrator/analysis/verdict.js): made by one constructor from its nine groups
// and nothing else, frozen, its toJSON() held to verdict.schema.json (the kept examples' runs
// analysed again, and one made here from crafted records) and equal to the verdicts.json the kept
// examples hold; and a rule's words (analysis/rule-words.js), made from its thresholds, say
// the thresholds' own figures, which no decidedBy restates by hand.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { makeVerdict } = require('../../orchestrator/analysis/verdict');
const { analyseScenario } = require('../../orchestrator/analysis/analyse');
const { ruleText } = require('../../orchestrator/analysis/rule-words');
const { ratioText } = require('../../orchestrator/analysis/reasons');
const { ruleOf, flatRuleOf, HOLDS } = require('../../orchestrator/analysis/rules');
const { checkOf } = require('../../orchestrator/analysis/judge');
const { verdictsSchemaProblems } = require('../../orchestrator/schemas');
const { verdictsJson } = require('../../orchestrator/export/verdicts-json');
const { findingOfScenarios, readRunModel } = require('../../orchestrator/analysis/run-model');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { withBlocks } = require('../helpers/blocks');
const { mk } = require('../../shell/many-keys/test/verdict-cases');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const EXAMPLES = path.join(root, 'reports', 'examples');

/** Many-keys' finding judged on crafted paired rounds, as a run's analysis makes it. */
function craftedVerdicts() {
  const scenario = scenarios.find((s) => s.name === 'many-keys');
  const run = withBlocks(mk(18.35, 1.47).map((r) => ({ scenario: 'many-keys', server: 's', ...r })), { counts: ['updates'] });
  return analyseScenario(scenario, { ...run, sizesOf: () => scenario.sizes.article }).verdicts;
}

describe('the Verdict type', () => {
  const groups = () => ({
    identity: { scenario: 's', finding: 'f', server: 'a' }, status: HOLDS,
    estimate: { ratio: 3, lo: 2, hi: 4, n: 8, se: 0.1, pairs: [3, 3], clock: 'applied' }, article: { ratio: 2.5, clock: 'send' },
    reasons: [{ code: 'weaker' }], detail: { kind: 'ratio' },
  });

  it('is made whole by its constructor from its nine groups, and cannot be changed after', () => {
    const v = makeVerdict(groups());
    assert.deepEqual(Object.keys(v), ['identity', 'status', 'estimate', 'article', 'thresholds', 'reasons', 'evidence', 'detail', 'conditions']);
    assert.deepEqual(v.estimate, { ratio: 3, lo: 2, hi: 4, n: 8, se: 0.1, df: null, method: null, pairs: [3, 3], scope: 'within-run', field: null, clock: 'applied', onArticleClock: null });
    assert.deepEqual(v.article, { ratio: 2.5, clock: 'send', field: null });
    assert.deepEqual(v.identity, { scenario: 's', finding: 'f', scope: 'server', server: 'a', servers: null, kit: false });
    assert.equal(v.conditions, null);
    assert.ok(Object.isFrozen(v) && Object.isFrozen(v.estimate) && Object.isFrozen(v.reasons[0]));
    assert.throws(() => { 'use strict'; v.status = 'inconclusive'; }, TypeError);
    assert.throws(() => makeVerdict({ identity: { scenario: 's', finding: 'f', server: 'a' }, detail: { kind: 'ratio' } }), /status/);
  });

  it('refuses a field it does not know, at the top and in each group, and a detail not of its kind', () => {
    assert.throws(() => makeVerdict({ ...groups(), ratio: 3 }), /has no field ratio/);
    assert.throws(() => makeVerdict({ ...groups(), estimate: { ...groups().estimate, guess: 1 } }), /estimate has no field guess/);
    assert.throws(() => makeVerdict({ ...groups(), evidence: { hunch: true } }), /evidence has no field hunch/);
    assert.throws(() => makeVerdict({ ...groups(), detail: { kind: 'ratio', points: [] } }), /detail \(ratio\) has no field points/);
    assert.throws(() => makeVerdict({ ...groups(), detail: { kind: 'guess' } }), /tagged by its check kind/);
    assert.throws(() => makeVerdict({ ...groups(), status: 'probably' }), /status is one of/);
  });

  it('carries a scope, not an invented server name: all-servers and article name no server, yet verdicts.json says them as it always has', () => {
    assert.throws(() => makeVerdict({ ...groups(), identity: { scenario: 's', finding: 'f', scope: 'all-servers', server: 'all servers' } }), /names its server/);
    assert.throws(() => makeVerdict({ ...groups(), identity: { scenario: 's', finding: 'f' } }), /names its server/);
    const across = makeVerdict({ ...groups(), identity: { scenario: 's', finding: 'f', scope: 'all-servers', servers: ['a', 'b'] } });
    assert.equal(across.identity.server, null);
    assert.deepEqual([across.toJSON().server, across.toJSON().servers], ['all servers', ['a', 'b']]);
    const published = makeVerdict({ ...groups(), identity: { scenario: 's', finding: 'f', scope: 'article' }, detail: { kind: 'publishedOnly' } });
    assert.equal(published.toJSON().server, 'the article\'s');
  });

  it('takes, for a finding across servers of any kind, each server\'s side and the ratios shown beside (also), and refuses them on one server', () => {
    const across = { scenario: 's', finding: 'f', scope: 'all-servers', servers: ['a', 'b'] };
    const sides = { num: { label: 'a' }, den: { label: 'b' } };
    const near = makeVerdict({ ...groups(), identity: across, detail: { kind: 'near', x: 1, sides, also: [{ server: 'c', ratio: 0.9 }] } });
    assert.deepEqual(near.detail.also, [{ server: 'c', ratio: 0.9 }]);
    assert.throws(() => makeVerdict({ ...groups(), detail: { kind: 'near', also: [] } }), /detail \(near\) has no field also/);
  });

  it('accepts the conditions of its comparison, and writes them only where it has them', () => {
    assert.equal('conditions' in makeVerdict(groups()).toJSON(), false);
    const conditions = { sides: [{ side: 'a', acknowledged: true }] };
    const v = makeVerdict({ ...groups(), conditions });
    assert.deepEqual(v.toJSON().conditions, conditions);
    assert.deepEqual(verdictsSchemaProblems([v.toJSON()]), []);
  });

  it('is what the analysis makes of every finding, frozen', () => {
    const verdicts = craftedVerdicts();
    assert.equal(verdicts.length, 1);
    assert.equal(verdicts[0].status, HOLDS);
    assert.ok(verdicts.every((v) => Object.isFrozen(v) && v.estimate.n === 8 && v.article.ratio === 12.49));
  });

  it('verdicts.json made from a unit-built analysis holds to verdict.schema.json', () => {
    const json = JSON.parse(verdictsJson([{ label: 'crafted', verdicts: craftedVerdicts() }], findingOfScenarios(scenarios)));
    assert.deepEqual(verdictsSchemaProblems(json), []);
    assert.deepEqual(verdictsSchemaProblems([{ ...json[0], status: 'probably' }]).length, 1);
  });

  it('toJSON() of every verdict of the kept examples\' runs, analysed again, holds to verdict.schema.json and is the record their verdicts.json holds', () => {
    const dirs = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'results.jsonl')));
    assert.ok(dirs.length >= 4, dirs.join(', '));
    for (const dir of dirs) {
      const { verdicts } = readRunModel(path.join(EXAMPLES, dir), scenarios);
      const records = JSON.parse(JSON.stringify(verdicts));
      assert.deepEqual(verdictsSchemaProblems(records), [], dir);
      assert.deepEqual(records, JSON.parse(fs.readFileSync(path.join(EXAMPLES, dir, 'verdicts.json'), 'utf8')), `${dir}: re-render the kept examples (orchestrate report)`);
    }
  });

  it('every kept example\'s verdicts.json holds to verdict.schema.json', () => {
    const dirs = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'verdicts.json')));
    assert.ok(dirs.length >= 4, dirs.join(', '));
    for (const dir of dirs) {
      const verdicts = JSON.parse(fs.readFileSync(path.join(EXAMPLES, dir, 'verdicts.json'), 'utf8'));
      assert.deepEqual(verdictsSchemaProblems(verdicts), [], dir);
      assert.ok(verdicts.every((v) => v.estimate && v.article), `${dir}: re-render the kept examples (orchestrate report)`);
    }
  });
});

describe('a rule\'s words', () => {
  const findings = scenarios.flatMap((s) => (s.loadPublished().findings || []).map((f) => ({ scenario: s.name, f })))
    .filter(({ f }) => f.check.kind !== 'publishedOnly');

  it('say each of the rule\'s thresholds as it is', () => {
    for (const { scenario, f } of findings) {
      const words = ruleText(f);
      const check = checkOf(f);
      const at = (check.figureAt || [{}]).map((p) => p.x);
      const rules = at.map((x) => ruleOf(check, { at: x })).filter(Boolean);
      const figures = rules.flatMap((r) => [r.holdsAt, r.failsAt, ...(r.upTo ? [r.upTo] : []), ...(r.direction === 'near' ? [1 / r.holdsAt] : [])]);
      const flat = flatRuleOf(check);
      if (flat) figures.push(flat.holdsAt, flat.failsAt);
      for (const x of figures) assert.ok(words.includes(ratioText(x)), `${scenario}/${f.id}: "${words}" lacks ${ratioText(x)}`);
      if (check.kind === 'crossing') assert.ok(words.includes(`${check.margin * 100}%`), `${scenario}/${f.id}: ${words}`);
      assert.ok(words.length > 0, `${scenario}/${f.id} has no rule in words`);
    }
  });

  it('are not restated by hand in any decidedBy', () => {
    for (const { scenario, f } of findings) {
      const check = checkOf(f);
      const rules = (check.figureAt || [{}]).map((p) => ruleOf(check, { at: p.x })).filter(Boolean);
      const flat = flatRuleOf(check);
      const thresholds = [...rules.flatMap((r) => [r.holdsAt, r.failsAt]), ...(flat ? [flat.holdsAt, flat.failsAt] : [])].filter((t) => t !== 1);
      const typed = [...thresholds.flatMap((t) => [`${t}×`, `${Number(t.toFixed(2))}×`]), ...(check.margin ? [`${check.margin * 100}%`] : [])];
      // a figure as a whole number ("5%", not the "95%" of the interval)
      const says = (t) => f.decidedBy.split(/[\s(,;:]+/).some((word) => word === t);
      for (const t of typed) assert.ok(!says(t), `${scenario}/${f.id}: decidedBy says ${t}, which its thresholds say`);
    }
  });
});
