'use strict';
// Each finding's history: every run in the store (results/history.js) analysed as the report
// analyses it (analyseRun: the run's own, within-run verdicts; nothing cached on disk), one entry
// per finding × server × run, grouped by machine (its fingerprint's id) and by server (what
// answered and its version), servers in version order and each server's runs by time. Change
// points are marked with compare's own test (comparison.js compareFinding): between consecutive
// versions of a server on one machine, and between consecutive runs of one version on one
// machine; and where the status moved. Runs on different machines are never one series.
const path = require('node:path');
const { sizesOf } = require('../results/reader');
const { machineOf, machineWords } = require('../results/machine');
const { serverDisplayName } = require('../results/server-names');
const { analyseRun } = require('./analyse');
const { compareFinding } = require('./comparison');
const { holm } = require('./change');
const { randomEffects } = require('./random-effects');
const { TESTED, CHANGED } = require('./rules');

/** "v2.7.0", "8.2.6" → [2, 7, 0] / [8, 2, 6]: a version's numbers, for ordering; [] where it has none. */
const versionNumbers = (v) => (String(v || '').match(/\d+/g) || []).map(Number);
function compareVersions(a, b) {
  const x = versionNumbers(a);
  const y = versionNumbers(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

/**
 * A server as history groups it: { key (what answered, its version and backend: "FerretDB 1.24 on
 * PostgreSQL 15.18"), product (the series versions are ordered in: FerretDB, MongoDB), version,
 * alias (the kit's name for it in that run) }.
 */
function serverOf(record, alias) {
  const name = record ? serverDisplayName(record) : alias;
  const [major, minor] = versionNumbers(record?.version);
  // a chart's label under a group of runs: the product and its version ("FerretDB 2.7"), else the name
  const short = record?.product && major !== undefined ? `${record.product} ${major}.${minor ?? 0}` : name;
  return { key: name, short, product: record?.product || name, version: record?.version ?? null, alias };
}

/** The sizes a verdict ran at, with the passes, as one comparable string. */
function sizesKey(data, scenario, server) {
  const sizes = sizesOf(data, scenario, server) || {};
  const passes = data.run.params.passes?.[scenario] ?? null;
  return JSON.stringify([Object.keys(sizes).sort().map((k) => [k, sizes[k]]), passes]);
}

/** Whether a verdict's blocks were quiet: their contention measured and not busy (null: not measured). */
const quietOf = (v) => (v.contention ? !v.contention.busy : null);

/**
 * A run's facts each entry carries: { dir, name, runId, startedAt, added, machine }, and per
 * verdict what history compares it by.
 */
function factsOf(data, v) {
  const record = data.servers.find((s) => s.server === v.server) || null;
  return {
    server: serverOf(record, v.server),
    sizes: sizesOf(data, v.scenario, v.server),
    sizesKey: sizesKey(data, v.scenario, v.server),
    quiet: quietOf(v),
  };
}

/** One run's entries: each verdict measured on one server (not the article's, not across servers). */
function entriesOfRun(data, scenarios, run) {
  const found = machineOf(data);
  const machine = { ...found, words: machineWords(found) };
  const { verdicts } = analyseRun(data, scenarios);
  return verdicts.filter((v) => v.identity.scope === 'server').map((v) => ({
    finding: v.finding, scenario: v.scenario,
    run: { dir: data.dir, name: path.basename(data.dir), runId: data.runId, startedAt: data.run.startedAt ?? null, added: Boolean(run?.added) },
    machine,
    ...factsOf(data, v),
    status: v.status, ratio: v.ratio, lo: v.lo, hi: v.hi, se: v.se, df: v.df, n: v.n,
    articleRatio: v.articleRatio, thresholds: v.thresholds, contention: v.contention?.medianOtherShare ?? null,
    // the machine's canary in this run: its calibration's bare-driver ms per operation on this server (null: not calibrated)
    canary: found.figures[v.server] ?? null,
  }));
}

/**
 * The history over a store ({ runs, read, problems }, results/history.js) for a set of scenarios:
 * { entries(filter), comparableTo(data, verdict), problems }. Each run is read and analysed at
 * most once, when first asked for.
 */
function runHistory(store, scenarios) {
  const analysed = new Map();
  const problems = [...store.problems];
  const entriesOf = (run) => {
    if (!analysed.has(run.dir)) {
      try {
        analysed.set(run.dir, entriesOfRun(store.read(run.dir), scenarios, run));
      } catch (err) {
        problems.push(`${run.dir}: ${err.message}; left out of the history`);
        analysed.set(run.dir, []);
      }
    }
    return analysed.get(run.dir);
  };
  return {
    problems,
    /** Every entry, of the findings named (all where none), runs by start. */
    entries({ findings = [] } = {}) {
      const all = store.runs.flatMap(entriesOf);
      return findings.length ? all.filter((e) => findings.includes(e.finding)) : all;
    },
    /**
     * The entries of other runs comparable with verdict v of the run `data`: the same finding,
     * server (what answered, its version), machine id, sizes and passes, and quiet, with v quiet
     * too; [] where v is not quiet. Only runs whose header names the machine and the scenario
     * are analysed.
     */
    comparableTo(data, v) {
      const facts = factsOf(data, v);
      if (facts.quiet !== true) return [];
      const id = machineOf(data).id;
      const self = path.resolve(data.dir);
      return store.runs
        .filter((r) => r.dir !== self && r.header.runId !== data.runId && r.machine.id === id && (r.header.params.scenarios || []).includes(v.scenario))
        .flatMap(entriesOf)
        .filter((e) => e.finding === v.finding && e.scenario === v.scenario && e.server.key === facts.server.key && e.sizesKey === facts.sizesKey && e.quiet === true);
    },
  };
}

/** A group of entries as one estimate for the change test: the run itself, or the runs combined by random effects. */
function groupEstimate(entries) {
  const usable = entries.filter((e) => Number.isFinite(e.se) && e.se > 0 && Number.isFinite(e.df) && e.df > 0);
  if (usable.length >= 2) {
    const re = randomEffects(usable.map(({ ratio, se, df, n }) => ({ ratio, se, df, n })));
    if (re) return { ratio: re.ratio, lo: re.lo, hi: re.hi, se: re.se, df: re.df, runs: usable.length };
  }
  const last = entries.at(-1);
  return { ratio: last.ratio, lo: last.lo, hi: last.hi, se: last.se, df: last.df, runs: 1 };
}

/** A change test's figures as a change point carries them. */
const change = (from, to, test, kind) => ({
  kind, from, to, factor: test.factor, lo: test.lo, hi: test.hi, p: test.test?.p ?? null, pHolm: test.test?.pHolm ?? null, status: test.status, changed: test.status === CHANGED,
});

/**
 * Each finding's history: [{ finding, scenario, articleRatio, machines: [{ machine, servers: [{
 * server, entries (by time), changes (over time on this version: between consecutive runs) }],
 * changes (between consecutive versions of one product) }] }], findings in the order first met,
 * machines by their first run, servers by product then version.
 */
function findingHistories(entries) {
  const byFinding = new Map();
  for (const e of entries) {
    const key = `${e.scenario}|${e.finding}`;
    if (!byFinding.has(key)) byFinding.set(key, []);
    byFinding.get(key).push(e);
  }
  const histories = [...byFinding.values()].map((list) => {
    const machines = [...new Map(list.map((e) => [e.machine.id, e.machine])).values()].map((machine) => {
      const mine = list.filter((e) => e.machine.id === machine.id);
      const servers = [...new Map(mine.map((e) => [e.server.key, e.server])).values()]
        .sort((a, b) => String(a.product).localeCompare(String(b.product)) || compareVersions(a.version, b.version) || a.key.localeCompare(b.key))
        .map((server) => {
          const runs = mine.filter((e) => e.server.key === server.key).sort((a, b) => String(a.run.startedAt).localeCompare(String(b.run.startedAt)));
          const changes = runs.slice(1).map((e, i) => markChange(runs[i], e, 'over time', runs[i].run.name, e.run.name, { sizesDiffer: runs[i].sizesKey !== e.sizesKey }));
          return { server, entries: runs, changes };
        });
      const changes = [];
      for (let i = 1; i < servers.length; i++) {
        const [a, b] = [servers[i - 1], servers[i]];
        if (a.server.product !== b.server.product) continue;
        const tested = (s) => s.entries.filter((e) => TESTED.includes(e.status));
        const ea = tested(a);
        const eb = tested(b);
        if (!ea.length || !eb.length) continue;
        // each version's runs at its latest sizes, combined: a ratio measured at another size is another question
        const atLast = (es) => es.filter((e) => e.sizesKey === es.at(-1).sizesKey);
        const ga = { ...groupEstimate(atLast(ea)), status: ea.at(-1).status };
        const gb = { ...groupEstimate(atLast(eb)), status: eb.at(-1).status };
        changes.push(markChange(ga, gb, 'between versions', a.server.key, b.server.key, { sizesDiffer: ea.at(-1).sizesKey !== eb.at(-1).sizesKey }));
      }
      return { machine, servers, changes };
    });
    const first = list[0];
    return { finding: first.finding, scenario: first.scenario, articleRatio: first.articleRatio, machines };
  });
  return withHolm(histories);
}

/**
 * A change point between two estimates (entries, or groups of them): the ratio's change by
 * compare's test (its p corrected after, withHolm), and whether the status moved; null where
 * neither was tested nor measured. sizesDiffer: the two ran at different sizes, so their ratios answer different questions: the
 * ratio is not tested (its status says why), a status that moved is still said.
 */
function markChange(a, b, kind, from, to, { sizesDiffer = false } = {}) {
  if (!TESTED.includes(a.status) && !TESTED.includes(b.status) && a.status === b.status) return null;
  const test = sizesDiffer ? { factor: b.ratio / a.ratio, lo: null, hi: null, test: null, status: 'sizes differ' } : compareFinding(a, b);
  const mark = { ...change(from, to, test, kind), statusFrom: a.status, statusTo: b.status, statusMoved: a.status !== b.status, sizesDiffer };
  // the two estimates, for Holm's correction across the findings of one transition (withHolm); not rendered
  Object.defineProperty(mark, 'tested', { value: sizesDiffer ? null : { a, b }, enumerable: false });
  return mark;
}

/**
 * The change points of every finding decided again as compare decides a pair of runs: each
 * transition (between two versions, or two runs, on one machine) tests every finding at once, so
 * each test's p is corrected by Holm's method across the findings of that transition; a mark where
 * neither the ratio changed nor the status moved is dropped (but between versions, always kept).
 */
function withHolm(histories) {
  const families = new Map();
  for (const h of histories) {
    for (const m of h.machines) {
      const lists = [...m.servers.map((s) => s.changes), m.changes];
      for (const list of lists) {
        for (const c of list) {
          if (!c?.tested || !Number.isFinite(c.p)) continue;
          const key = JSON.stringify([m.machine.id, c.kind, c.from, c.to]);
          if (!families.has(key)) families.set(key, []);
          families.get(key).push(c);
        }
      }
    }
  }
  const redecided = new Map();
  for (const marks of families.values()) {
    const adjusted = holm(marks.map((c) => c.p));
    marks.forEach((c, i) => {
      const test = compareFinding(c.tested.a, c.tested.b, undefined, adjusted[i]);
      redecided.set(c, { ...c, ...change(c.from, c.to, test, c.kind), statusFrom: c.statusFrom, statusTo: c.statusTo, statusMoved: c.statusMoved, sizesDiffer: c.sizesDiffer });
    });
  }
  const keep = (c, always) => always || c.changed || c.statusMoved;
  const again = (list, always) => list.filter(Boolean).map((c) => redecided.get(c) ?? c).filter((c) => keep(c, always));
  return histories.map((h) => ({
    ...h,
    machines: h.machines.map((m) => ({ ...m, servers: m.servers.map((s) => ({ ...s, changes: again(s.changes, false) })), changes: again(m.changes, true) })),
  }));
}

module.exports = { runHistory, entriesOfRun, findingHistories, compareVersions, groupEstimate, serverOf };
