'use strict';
// The check kinds, one file each (its rule, its problems, its judgement, its words), and the one
// list of them: the judge (judge.js), the rules (rules.js), the words (rule-words.js), the
// analysis (analyse.js), the planner (sizing/planner.js), the contract check (scenarios.js), the
// views (comparison.js, report/model.js) and the docs (docs.js) all read it, and a unit test
// holds published.schema.json's kind enum (which an editor reads as the file is typed) to it. A
// new kind of claim is a new file here and a line below.
//
// A kind: { kind, about (its words in the schema's description), decides (a measurement decides
// it: false for a finding only published), saysFigure (an article's claim of this kind says what
// it claimed of its figure: check.says), detailFields (what its verdict's detail carries:
// verdict.js), twoSided (the planner can promise it from its two sides' probes), rule(check, {
// at }) (its threshold table, rules.js), ruleProblem(check), words(check), judge(check, ctx, {
// rule, timed }) → { decided, rule, est, detail, groups, dropped, missing, duplicated } (or
// readAsRecorded: a kind that rests on no pairs), estimateOn(check, ctx, rule) (the same
// comparison on another clock, where the kind has one), articleAtRunSize(finding, at) (the
// article's figure at the largest x the run reached, where the kind has points) }.
const KINDS = [require('./ratio'), require('./near'), require('./growth'), require('./crossing'), require('./published-only')];

/** The check kinds a finding may name. */
const CHECK_KINDS = KINDS.map((k) => k.kind);

const byName = new Map(KINDS.map((k) => [k.kind, k]));

/** The kind a check names, or null where it names none the verdicts know. */
const kindOf = (name) => byName.get(name) ?? null;

/** Whether a finding is decided by a measurement (not only published). */
const decidesByMeasurement = (finding) => Boolean(kindOf(finding?.check?.kind)?.decides);

module.exports = { KINDS, CHECK_KINDS, kindOf, decidesByMeasurement };
