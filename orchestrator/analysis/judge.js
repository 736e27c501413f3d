'use strict';
// One finding on one server's records, made into a verdict once: its status, its ratio with a 95%
// interval and the pairs it rests on, the clock it was decided on, the article's figure, the
// rule's thresholds and its reasons as codes (orchestrator/analysis/reasons.js gives their
// words). Every view (report.html, summary.md, verdicts.png, verdicts.json, compare) reads these
// fields; none reads a figure back out of a sentence.
//
// A comparison is decided on paired blocks (docs/outputs.md, "Paired rounds"): the block records
// of each side, paired by round; the ratio is the geometric mean of the pairs' ratios and the
// interval Student's t on their logs (estimate.js). A run recorded before pairing has no blocks:
// its repeats (--repeat) are paired by repeat where it has two or more, else its one reading per
// side decides, with no interval, and the verdict says so.
const { matches } = require('../results/records');
const { fieldInfo, spanMs, nameInWords } = require('../results/fields');
const { minSpanMs } = require('../sizing/planner');
const { pairedEstimate, singleEstimate, MIN_PAIRS } = require('./estimate');
const { networkOfSides, withNetwork } = require('./network');
const { flowControlReason } = require('./replication');
const {
  ruleOf, flatRuleOf, statusOf, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY,
} = require('./rules');

const pick = (records, where) => records.filter((r) => matches(r, { where }));
/** Whether a record is of a selection (its fromServer aside: which server it came from is said apart). */
const inSelection = (r, sel) => { const { fromServer, ...where } = sel || {}; return matches(r, { where }); };
const getPath = (record, dotted) => dotted.split('.').reduce((v, k) => (v == null ? v : v[k]), record);
const describeSelection = (where) => Object.entries(where).filter(([k]) => k !== 'fromServer' && k !== 'step').map(([, v]) => v).join(' ');

/**
 * The check a finding is decided by: one that names its clock (clock.decides) is decided on that
 * field whatever its check says, and the article's clock (clock.article) is what a baseline that
 * recorded nothing on the deciding clock is read on (its own clock stops once every write is
 * applied: it waited for each).
 */
function checkOf(finding) {
  const { clock, check } = finding;
  return clock ? { ...check, field: clock.decides, baselineField: clock.article } : check;
}

/** The key that pairs blocks: the run (repeat), the pass and the round they were timed in. */
const pairKey = (r) => `${r.repeat ?? 0}|${r.pass || 0}|${r.round}`;

/**
 * The records of one side of a check for a server: its own, or where the side names fromServer
 * (the SQL baseline), that server's, as paired with this one (forServers).
 */
function sideRecords(records, sel, server) {
  const { fromServer, ...where } = sel;
  const from = fromServer ? records.filter((r) => r.server === fromServer && (!r.forServers || r.forServers.includes(server))) : records.filter((r) => r.server === server);
  return pick(from, where);
}

/** The field a side is timed on: the check's, or for a baseline that lacks it, its own clock. */
function fieldFor(check, recs, sel) {
  if (!sel.fromServer || !check.baselineField || recs.some((r) => Number.isFinite(r[check.field]))) return check.field;
  return check.baselineField;
}

/**
 * A side's value per sample key: Map(key → sum of field over its records with that key, or with
 * `per` the sum of field over the sum of per: a time per unit of work). keep(r) narrows the
 * records (the cells measured on both sides). Where a side that is no sum has two records under
 * one key (repeats that printed different numbers of lines), the key is left out and named in
 * `duplicated`.
 */
function samplesOf(recs, field, keyOf, { per: perField = null, keep = () => true, sum = true } = {}) {
  // a time per unit only where every record says its units (runs before pairing may not)
  const per = perField && recs.every((r) => !Number.isFinite(r[field]) || Number.isFinite(r[perField])) ? perField : null;
  const sums = new Map();
  const duplicated = new Set();
  for (const r of recs) {
    if (!Number.isFinite(r[field]) || !keep(r)) continue;
    const k = keyOf(r);
    const s = sums.get(k) || { v: 0, u: 0, n: 0 };
    s.v += r[field];
    s.u += per ? (Number(r[per]) || 0) : 1;
    s.n += 1;
    if (!sum && s.n > 1) duplicated.add(k);
    sums.set(k, s);
  }
  for (const k of duplicated) sums.delete(k);
  const values = new Map([...sums].map(([k, s]) => [k, per ? (s.u > 0 ? s.v / s.u : NaN) : s.v]));
  values.duplicated = duplicated;
  return values;
}

/** The counted repeats of a run recorded before pairing (--repeat K, warm-up left out). */
const repeatKey = (r) => `${r.repeat}|${r.pass || 0}`;
const repeatsIn = (recs) => new Set(recs.filter((r) => Number.isInteger(r.repeat) && r.repeat >= 1).map((r) => r.repeat)).size;

/**
 * The paired samples of a comparison of two selections, from the best the run has: its blocks
 * (paired by round), else its repeats (paired by repeat), else one reading per side. Returns
 * { source: 'blocks' | 'repeats' | 'single', pairs: [{ key, num, den }], num, den (the totals of
 * the aggregated records, for the views), records (those it rests on, for the span check) }.
 */
function comparison(check, ctx, numSel, denSel, { field = check.field } = {}) {
  const { server } = ctx;
  const fieldOf = (recs, sel) => fieldFor({ ...check, field }, recs, sel);
  const cellKey = check.pairBy ? (r) => JSON.stringify(check.pairBy.map((f) => r[f])) : null;
  // with pairBy, a sum compares the same cells: a cell measured on one side only drops out of both
  const bothSides = (a, b) => {
    if (!cellKey) return () => true;
    const cells = (recs, f) => new Set(recs.filter((r) => Number.isFinite(r[f])).map((r) => `${pairKeyOrRepeat(r)}#${cellKey(r)}`));
    const ca = cells(a.recs, a.field);
    const cb = cells(b.recs, b.field);
    return (r) => { const k = `${pairKeyOrRepeat(r)}#${cellKey(r)}`; return ca.has(k) && cb.has(k); };
  };
  const side = (records, sel) => { const recs = sideRecords(records, sel, server); return { recs, field: fieldOf(recs, sel) }; };

  const totals = (() => {
    const a = side(ctx.records, numSel);
    const b = side(ctx.records, denSel);
    const keep = bothSides(a, b);
    const total = (s) => {
      const found = s.recs.filter((r) => Number.isFinite(r[s.field]) && keep(r));
      if (!found.length) return null;
      const used = check.sum ? found : found.slice(0, 1);
      const value = used.reduce((n, r) => n + r[s.field], 0);
      const units = check.per ? used.reduce((n, r) => n + (Number(r[check.per]) || 0), 0) : null;
      return { value, units, field: s.field, records: used };
    };
    return { num: total(a), den: total(b) };
  })();

  const paired = (records, keyOf, source) => {
    const a = side(records, numSel);
    const b = side(records, denSel);
    if (!a.recs.length || !b.recs.length) return null;
    const keep = bothSides(a, b);
    // blocks of one side under one key are its parts (cells, shells) and add up; a repeat's line is one reading
    const sum = source === 'blocks' || source === 'samples' || Boolean(check.sum);
    const na = samplesOf(a.recs, a.field, keyOf, { per: check.per, keep, sum });
    const nb = samplesOf(b.recs, b.field, keyOf, { per: check.per, keep, sum });
    const duplicated = new Set([...na.duplicated, ...nb.duplicated]);
    if (!na.size || !nb.size) return duplicated.size ? { source, pairs: [], missing: 0, duplicated: duplicated.size, records: [] } : null;
    const keys = [...na.keys()].filter((k) => nb.has(k));
    const missing = new Set([...na.keys(), ...nb.keys()]).size - keys.length;
    return { source, pairs: keys.map((key) => ({ key, num: na.get(key), den: nb.get(key) })), missing, duplicated: duplicated.size, records: [...a.recs, ...b.recs] };
  };
  const fromBlocks = paired(ctx.blocks, pairKey, 'blocks');
  if (fromBlocks) return { ...fromBlocks, ...totals };
  // a script that interleaves its variants itself (power-of-2-sizes' passes, operation by
  // operation) names the field whose values are its samples: sampleBy
  if (check.sampleBy) {
    const bySample = paired(ctx.records, (r) => `${r.repeat ?? 0}|${r[check.sampleBy]}`, 'samples');
    if (bySample && bySample.pairs.length >= 2) return { ...bySample, ...totals };
  }
  const repeats = [numSel, denSel].map((sel) => repeatsIn(sideRecords(ctx.raw, sel, server)));
  if (repeats.every((k) => k >= 2)) {
    const fromRepeats = paired(ctx.raw.filter((r) => Number.isInteger(r.repeat) && r.repeat >= 1), repeatKey, 'repeats');
    if (fromRepeats) return { ...fromRepeats, ...totals };
  }
  const single = totals.num && totals.den ? [{ key: 'single', num: perUnit(totals.num, check), den: perUnit(totals.den, check) }] : [];
  return { source: 'single', pairs: single, missing: 0, records: [...(totals.num?.records || []), ...(totals.den?.records || [])], ...totals };
}

const pairKeyOrRepeat = (r) => (Number.isInteger(r.round) ? pairKey(r) : Number.isInteger(r.repeat) ? repeatKey(r) : 'single');
const perUnit = (total, check) => (check.per ? (total.units > 0 ? total.value / total.units : NaN) : total.value);

/** A comparison's estimate: paired where it has pairs, a single ratio where it has one reading. */
function estimateOf(cmp) {
  if (cmp.source === 'single') return cmp.pairs.length ? singleEstimate(cmp.pairs[0].num, cmp.pairs[0].den) : singleEstimate(NaN, NaN);
  return pairedEstimate(cmp.pairs.map((p) => p.num / p.den));
}

/**
 * The timed spans a comparison rests on that are too short to decide from: a block (or a reading)
 * of a few milliseconds is mostly the clock's resolution, a shell's start skew or the machine's
 * jitter. Each record is held to its own step's shortest span (scaling.spans; else the default),
 * the SQL baseline's records too. Sizes, counts and means per operation are no spans.
 */
function shortSpans(records, fields, descriptor, labelOf) {
  return records.map((r) => {
    const field = fields.find((f) => f && Number.isFinite(r[f]));
    return { r, ms: field ? spanMs(field, r[field]) : null };
  })
    .filter(({ ms }) => ms !== null)
    .map(({ r, ms }) => ({ label: labelOf(r), ms, minMs: minSpanMs(descriptor, r.step) }))
    .filter((f) => f.ms < f.minMs)
    .sort((a, b) => a.ms - b.ms);
}

/** The too-short reason: the shortest few spans, and how many there were in all. */
const tooShortReason = (short) => ({ code: 'too-short', figures: short.slice(0, 5), count: short.length });

/**
 * A finding's precondition (requires): a field some record must carry with a value (equals), or
 * reach (atLeast), else the finding cannot be tested here. A threshold holds for every server among
 * the records and every record of each. Returns reasons (none where it is met).
 */
function unmet(requires, all) {
  if (!requires) return [];
  if (Array.isArray(requires)) return requires.flatMap((r) => unmet(r, all));
  const records = requires.where ? pick(all, requires.where) : all;
  const carrying = records.filter((r) => getPath(r, requires.field) !== undefined && getPath(r, requires.field) !== null);
  const values = carrying.map((r) => getPath(r, requires.field));
  const label = requires.label || nameInWords(requires.field);
  const reason = (text) => [{ code: 'requirement-unmet', requirement: requires.code || requires.field, text }];
  if (!values.length) return reason(`${requires.unrecorded || requires.else} (no ${label} recorded)`);
  if (requires.atLeast !== undefined) {
    const servers = [...new Set(carrying.map((r) => r.server))];
    const short = servers.map((server) => ({ server, least: Math.min(...carrying.filter((r) => r.server === server).map((r) => getPath(r, requires.field))) }))
      .filter((s) => !(s.least >= requires.atLeast));
    if (!short.length) return [];
    const shown = short.map((s) => `${s.least}${servers.length > 1 ? ` on ${s.server}` : ''}`).join(', ');
    return reason(`${requires.else} (${label} ${shown}, ${requires.of || 'the article\'s'} ${requires.atLeast})`);
  }
  if (values.some((v) => v === requires.equals)) return [];
  const why = requires.because ? [...new Set(carrying.map((r) => getPath(r, requires.because)).filter(Boolean))] : [];
  return reason(`${requires.else} (${label}: ${[...new Set(values)].join(', ')}${why.length ? `: ${why.join('; ')}` : ''})`);
}

/** The size a finding needs (the scenario's scaling.findings) against the size the server ran: reasons. */
function sizeTooSmall(finding, descriptor, sizes) {
  const need = descriptor?.scaling?.findings?.[finding.id];
  if (!need?.atLeast || !sizes) return [];
  const short = Object.entries(need.atLeast).filter(([k, v]) => Number.isFinite(sizes[k]) && sizes[k] < v).map(([name, v]) => ({ name, value: sizes[name], need: v }));
  return short.length ? [{ code: 'size-too-small', short, why: need.why }] : [];
}

/** Why a side's reference server (a scenario's baseline) measured nothing, as the run recorded it. */
function baselineMissing(check, all) {
  return [check.num, check.den].filter((s) => s?.fromServer).map((s) => all.find((r) => r.server === s.fromServer && r.unavailable))
    .filter(Boolean).map((r) => ({ code: 'baseline-unavailable', server: r.server, why: r.unavailable }));
}

/**
 * The status of an estimate under a rule, with why: an interval decides; a single reading is its
 * own interval, said; fewer pairs than a verdict needs cannot hold or fail.
 */
function decide(rule, est) {
  const lo = est.lo ?? est.ratio;
  const hi = est.hi ?? est.ratio;
  const { status, straddles } = statusOf(rule, lo, hi);
  const reasons = [];
  if (straddles) reasons.push({ code: 'straddles', ...straddles });
  else if (status === INCONCLUSIVE) reasons.push({ code: 'inside-margin', from: Math.min(rule.failsAt, rule.holdsAt), to: Math.max(rule.failsAt, rule.holdsAt) });
  if (est.n === 1) reasons.push({ code: 'one-reading' });
  if (est.n > 1 && est.n < MIN_PAIRS && status !== INCONCLUSIVE) return { status: INCONCLUSIVE, reasons: [{ code: 'too-few-pairs', n: est.n, need: MIN_PAIRS }, ...reasons] };
  return { status, reasons };
}

/** The estimate's own fields, as a verdict and its parts carry them. */
const figures = (est) => ({ ratio: est.ratio, lo: est.lo, hi: est.hi, n: est.n, se: est.se ?? null, method: est.method });

/** A ratio of two selections. */
function ratioCheck(check, ctx) {
  const cmp = comparison(check, ctx, check.num, check.den);
  const est = estimateOf(cmp);
  return { est, cmp, spans: cmp.records, label: (r) => `${describeSelection(inSelection(r, check.num) ? check.num : check.den) || r.step} ${r.step}${Number.isInteger(r.round) ? ` round ${r.round}` : ''}` };
}

/** Two values about equal, at each `at` x (or once): the farthest from 1 on a log scale decides. */
function nearCheck(check, ctx, rule) {
  const points = (check.at || [undefined]).map((x) => {
    const at = (sel) => (x === undefined ? sel : { ...sel, [check.x]: x });
    const cmp = comparison(check, ctx, at(check.num), at(check.den));
    const est = estimateOf(cmp);
    const decided = est.n ? decide(rule, est) : { status: UNTESTABLE, reasons: [] };
    return { x, cmp, est, ...decided };
  });
  const measured = points.filter((p) => p.est.n);
  if (measured.length < points.length) {
    const missing = points.find((p) => !p.est.n);
    return { est: missing.est, cmp: missing.cmp, points, missingAt: missing.x };
  }
  const far = (p) => Math.abs(Math.log(p.est.ratio));
  // a point that fails decides; else one that cannot be told; else the farthest from 1
  const deciding = points.find((p) => p.status === FAILS) || points.filter((p) => p.status === INCONCLUSIVE).sort((a, b) => far(b) - far(a))[0]
    || [...points].sort((a, b) => far(b) - far(a))[0];
  const status = points.some((p) => p.status === FAILS) ? FAILS : points.every((p) => p.status === HOLDS) ? HOLDS : INCONCLUSIVE;
  return { est: deciding.est, cmp: deciding.cmp, points, deciding, status, reasons: deciding.reasons, spans: points.flatMap((p) => p.cmp.records) };
}

/**
 * A growth: one series' time per unit at its largest x against its fastest x, and where the
 * finding says so, a second series staying flat (the same two x, either way). Each as a
 * ratio of paired samples: the cells of one round are timed in the same round.
 */
function growthCheck(check, ctx) {
  const series = (where) => {
    const keyed = (recs, keyOf) => {
      const byX = new Map();
      for (const r of recs) {
        if (!Number.isFinite(r[check.x]) || !Number.isFinite(r[check.field])) continue;
        if (!byX.has(r[check.x])) byX.set(r[check.x], []);
        byX.get(r[check.x]).push(r);
      }
      return new Map([...byX].map(([x, rs]) => [x, samplesOf(rs, check.field, keyOf, { per: check.per })]));
    };
    const blocks = sideRecords(ctx.blocks, where, ctx.server);
    if (blocks.length) return { source: 'blocks', byX: keyed(blocks, pairKey), records: blocks };
    const raw = sideRecords(ctx.raw, where, ctx.server);
    if (repeatsIn(raw) >= 2) return { source: 'repeats', byX: keyed(raw.filter((r) => r.repeat >= 1), repeatKey), records: raw };
    const agg = sideRecords(ctx.records, where, ctx.server);
    return { source: 'single', byX: keyed(agg, () => 'single'), records: agg };
  };
  // the typical value of an x: the geometric mean of its samples
  const typical = (samples) => { const v = [...samples.values()].filter((x) => x > 0); return v.length ? Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length) : NaN; };
  const between = (s, hiX, loX) => {
    const a = s.byX.get(hiX);
    const b = s.byX.get(loX);
    const keys = [...a.keys()].filter((k) => b.has(k));
    return s.source === 'single' ? singleEstimate(a.get('single'), b.get('single')) : pairedEstimate(keys.map((k) => a.get(k) / b.get(k)));
  };
  const grow = series(check.grows);
  const xs = [...grow.byX.keys()].sort((p, q) => p - q);
  if (xs.length < 2) return { est: singleEstimate(NaN, NaN), points: xs.length, records: grow.records };
  const maxX = xs.at(-1);
  const fastest = xs.reduce((m, x) => (typical(grow.byX.get(x)) < typical(grow.byX.get(m)) ? x : m));
  const est = between(grow, maxX, fastest);
  // the other series at the same two points: where the one slowed, did the other stay level?
  // (its own slowest against its fastest would pick its noisiest pair, biased above 1)
  let flat = null;
  if (check.flat) {
    const f = series(check.flat.where);
    flat = f.byX.has(maxX) && f.byX.has(fastest)
      ? { est: maxX === fastest ? singleEstimate(1, 1) : between(f, maxX, fastest), at: maxX, ref: fastest, records: f.records }
      : { est: null, records: f.records };
  }
  return { est, at: maxX, ref: fastest, flat, records: [...grow.records, ...(flat?.records || [])], source: grow.source };
}

/**
 * a and b over x (sizes per pass): a starts above b by more than the margin and ends below it by
 * more than the margin. Sizes are no timing: one reading each, read as recorded.
 */
function crossingCheck(check, records, server) {
  const series = (name) => pick(records.filter((r) => r.server === server), { ...check.where, [check.series]: name })
    .filter((r) => Number.isFinite(r[check.y]) && Number.isFinite(r[check.x]))
    .sort((p, q) => p[check.x] - q[check.x]);
  const a = series(check.a);
  const b = series(check.b);
  const xs = a.map((r) => r[check.x]).filter((x) => b.some((r) => r[check.x] === x));
  if (xs.length < (check.minPoints || 2)) return { status: UNTESTABLE, reasons: [{ code: 'too-few-points', points: xs.length }], crossing: null };
  const gap = (x) => {
    const av = a.find((r) => r[check.x] === x)[check.y];
    const bv = b.find((r) => r[check.x] === x)[check.y];
    return (av - bv) / bv;
  };
  const first = gap(xs[0]);
  const last = gap(xs.at(-1));
  // a crossing is a's fall from above b by more than the margin: two like series wobbling around
  // each other (sizes within 0.1%) cross at every other point, which says nothing
  const crossAt = xs.find((x, i) => i > 0 && gap(xs[i - 1]) > 0 && gap(x) <= 0 && xs.slice(0, i).some((p) => gap(p) > check.margin));
  const crossing = { x: check.x, a: check.a, b: check.b, fromX: xs[0], toX: xs.at(-1), first, last, crossAt: crossAt ?? null };
  if (Math.abs(first) <= check.margin || Math.abs(last) <= check.margin) {
    return { status: INCONCLUSIVE, reasons: [{ code: 'inside-margin', from: -check.margin, to: check.margin }], crossing };
  }
  return { status: first > 0 && last < 0 ? HOLDS : FAILS, reasons: [], crossing };
}

/** What the server did that a reader needs beside the figure (its write concern, its plan): [{ label, values }]. */
function contextOf(finding, records) {
  return (finding.context || []).map((c) => ({
    label: c.label,
    values: [...new Set(pick(records, c.where || {}).map((r) => getPath(r, c.field)).filter((v) => v !== undefined && v !== null)
      .map((v) => (typeof v === 'object' ? [v.outcome, v.reason].filter(Boolean).join(': ') : String(v))))],
  })).filter((c) => c.values.length);
}

const SCAN = /\b(COLLSCAN|Seq Scan|table scan|reads every document)\b/i;

/**
 * How the server found its documents where a recorded plan says it read them all (a table or
 * collection scan) rather than through an index, as the articles' servers did: from the plan
 * fields, scan flags and plan texts of the records the finding is decided on. null otherwise.
 */
function mechanismOf(finding, records) {
  const { check } = finding;
  const sels = [check.num, check.den, check.grows, check.flat?.where, check.where, ...(finding.context || []).map((c) => c.where || {})]
    .filter(Boolean).map(({ fromServer, ...where }) => ({ ...check.where, ...where }));
  const decidedOn = records.filter((r) => sels.some((where) => matches(r, { where })));
  const counted = (o) => Number.isFinite(o.docsExamined) && o.docsExamined > 1 && o.keysExamined === 0;
  const said = (k, v) => /plan|Text$/i.test(k) && [].concat(v).some((x) => typeof x === 'string' && SCAN.test(x));
  const scans = (r) => r.planScans === true || counted(r)
    || Object.values(r).some((v) => v && typeof v === 'object' && !Array.isArray(v) && (v.scan === true || counted(v)))
    || Object.entries(r).some(([k, v]) => said(k, v));
  return decidedOn.some(scans) ? 'by a table scan' : null;
}

/**
 * The network's reason where what this server's operations waited for on the network could have
 * made the figure: each of the check's own selections (a baseline's are not this server's), timed
 * on the deciding clock, weighed apart (analysis/network.js). Null otherwise.
 */
function networkOf(check, ctx, own) {
  // a server the kit started listens on this machine's loopback: there a ping's time is the
  // server's own answer, not a distance, and no network decides anything
  if (!ctx.serverRecord || ctx.serverRecord.startedByKit || !check.field) return null;
  const sels = [check.num, check.den, check.grows, check.flat?.where].filter((sel) => sel && !sel.fromServer);
  const sides = sels.map((sel) => ({ label: describeSelection(sel) || null, records: own.filter((r) => inSelection(r, sel)) }));
  return networkOfSides(ctx.serverRecord, sides, { timeField: check.field, opsField: check.opsField || 'ops' });
}

/** A side's total as the views show it: { label, value, unit, field }. */
function sideFigure(total, sel) {
  if (!total) return null;
  return { label: describeSelection(sel), value: total.value, field: total.field, unit: fieldInfo(total.field).unit };
}

/**
 * The verdict of one finding on one server. ctx: { scenario, server, records (the scenario's
 * aggregated measurement records, every server's: a baseline's too), blocks (its block records),
 * raw (its measurement records before aggregation, for repeats), descriptor, sizes }.
 */
function judge(finding, ctx) {
  const base = { finding: finding.id, scenario: ctx.scenario, server: ctx.server, kit: finding.source === 'kit' };
  const { check } = finding;
  if (check.kind === 'publishedOnly') {
    return { ...base, status: PUBLISHED_ONLY, ratio: null, lo: null, hi: null, n: 0, method: null, field: null, clock: null, thresholds: null, reasons: [{ code: 'published-only', text: check.reason }] };
  }
  if (finding.across) return judgeAcross(finding, ctx, base);
  const own = ctx.records.filter((r) => r.server === ctx.server);
  const untestable = [...unmet(finding.requires, own), ...sizeTooSmall(finding, ctx.descriptor, ctx.sizes)];
  const c = checkOf(finding);
  const rule = ruleOf(c);
  const clockFields = { field: c.field ?? null, clock: c.field ? fieldInfo(c.field).clock : null, articleClock: finding.clock?.article ? fieldInfo(finding.clock.article).clock : null };
  const extras = { context: contextOf(finding, own), mechanism: null, shared: false };

  if (check.kind === 'crossing') {
    const out = crossingCheck(c, ctx.records, ctx.server);
    const status = untestable.length ? UNTESTABLE : out.status;
    return { ...base, ...clockFields, status, ratio: null, lo: null, hi: null, n: out.crossing ? 1 : 0, method: null, thresholds: null, crossing: out.crossing, reasons: [...untestable, ...out.reasons], ...extras };
  }

  let decided;
  let parts = {};
  let spanRecords = [];
  let label = (r) => r.step;
  if (check.kind === 'ratio') {
    const r = ratioCheck(c, ctx);
    const missing = baselineMissing(c, ctx.records);
    if (!r.est.n) {
      const zero = [r.cmp.num, r.cmp.den].some((t) => t && t.value === 0) ? [{ code: 'zero-denominator', side: describeSelection(c.den) }] : [];
      decided = { status: UNTESTABLE, reasons: missing.length ? missing : zero.length ? zero : [{ code: 'not-measured' }] };
    } else {
      decided = decide(rule, r.est);
    }
    parts = { est: r.est, sides: { num: sideFigure(r.cmp.num, c.num), den: sideFigure(r.cmp.den, c.den) }, missing: r.cmp.missing, duplicated: r.cmp.duplicated, source: r.cmp.source };
    spanRecords = r.cmp.records;
    label = r.label;
  } else if (check.kind === 'near') {
    const r = nearCheck(c, ctx, rule);
    if (r.missingAt !== undefined || !r.est.n) {
      decided = { status: UNTESTABLE, reasons: [{ code: 'not-measured', where: r.missingAt !== undefined ? `at ${r.missingAt} ${fieldInfo(c.x).words}` : '' }] };
    } else {
      decided = { status: r.status, reasons: r.reasons };
    }
    parts = {
      est: r.est, at: r.deciding?.x ?? null, source: r.cmp.source,
      sides: { num: sideFigure(r.cmp.num, c.num), den: sideFigure(r.cmp.den, c.den) },
      points: r.points.filter((p) => p.x !== undefined).map((p) => ({ x: p.x, ...figures(p.est), status: p.status })),
    };
    spanRecords = r.spans || [];
  } else if (check.kind === 'growth') {
    const r = growthCheck(c, ctx);
    if (!r.est.n) {
      decided = { status: UNTESTABLE, reasons: [{ code: 'too-few-points', points: r.points ?? 0 }] };
    } else {
      const growth = decide(rule, r.est);
      const flatRule = flatRuleOf(c);
      let flat = null;
      let flatReasons = [];
      if (r.flat && r.flat.est) {
        const fd = decide(flatRule, r.flat.est);
        flat = { ...figures(r.flat.est), status: fd.status, holdsAt: flatRule.holdsAt, failsAt: flatRule.failsAt, at: r.flat.at, ref: r.flat.ref };
        if (fd.status === FAILS) flatReasons = [{ code: 'not-flat', ratio: r.flat.est.ratio, lo: r.flat.est.lo, hi: r.flat.est.hi, at: flatRule.failsAt }];
        else if (fd.status === INCONCLUSIVE) flatReasons = [{ code: 'flat-straddles', ratio: r.flat.est.ratio, lo: r.flat.est.lo ?? r.flat.est.ratio, hi: r.flat.est.hi ?? r.flat.est.ratio, at: flatRule.holdsAt }];
      } else if (r.flat) {
        flatReasons = [{ code: 'flat-unmeasured' }];
      }
      // the claim is both: one series slows and the other stays flat; either part failing fails it
      const flatStatus = flat ? flat.status : (r.flat ? INCONCLUSIVE : HOLDS);
      let status = INCONCLUSIVE;
      if (growth.status === FAILS || flatStatus === FAILS) status = FAILS;
      else if (growth.status === HOLDS && flatStatus === HOLDS) status = HOLDS;
      const reasons = status === FAILS
        ? (growth.status === FAILS ? growth.reasons : flatReasons)
        : [...(growth.status === HOLDS ? growth.reasons.filter((x) => x.code === 'one-reading') : growth.reasons), ...flatReasons];
      decided = { status, reasons };
      parts.flat = flat;
    }
    parts = { ...parts, est: r.est, at: r.at ?? null, ref: r.ref ?? null, source: r.source };
    spanRecords = r.records;
    label = (rec) => `${describeSelection(inSelection(rec, c.grows) ? c.grows : c.flat?.where || {})} at ${rec[c.x]} ${fieldInfo(c.x).words}${Number.isInteger(rec.round) ? ` round ${rec.round}` : ''}`;
  } else {
    throw new Error(`finding ${finding.id}: no check of kind ${check.kind}`);
  }

  // a verdict may not rest on a span of a few milliseconds: it cannot hold or fail on one
  const short = [HOLDS, FAILS].includes(decided.status) ? shortSpans(spanRecords, [c.field, c.baselineField], ctx.descriptor, label) : [];
  if (short.length) decided = { status: INCONCLUSIVE, reasons: [tooShortReason(short), ...decided.reasons.filter((x) => x.code === 'one-reading')] };
  if (parts.missing) decided.reasons.push({ code: 'partner-missing', missing: parts.missing });
  if (parts.source === 'single' && decided.status !== UNTESTABLE && !decided.reasons.some((x) => x.code === 'one-reading') && fieldInfo(c.field).clock) decided.reasons.push({ code: 'one-reading' });
  const tested = [HOLDS, FAILS, INCONCLUSIVE].includes(decided.status);
  // a server far away (or the hop inside a cluster): where what each operation waited for on the
  // network is more than half of its time, the network could have made the ratio: inconclusive
  if (tested) decided = withNetwork(decided, networkOf(c, ctx, own));
  // flow control throttled the primary's writes during a step the verdict rests on: said
  const throttled = tested ? flowControlReason(spanRecords) : null;
  if (throttled) decided.reasons.push(throttled);
  const shared = tested && spanRecords.some((r) => r.otherRuns?.length);
  if (shared) decided.reasons.push({ code: 'shared-machine' });
  if (tested && (parts.duplicated || (ctx.misaligned?.size && spanRecords.some((r) => ctx.misaligned.has(r))))) decided.reasons.push({ code: 'repeats-misaligned' });

  // the article's clock beside the deciding one: the same comparison, whatever it would say
  let articleClockEstimate = null;
  if (finding.clock && finding.clock.article !== finding.clock.decides && check.kind !== 'growth') {
    const other = { ...c, field: finding.clock.article, baselineField: finding.clock.article };
    const est = check.kind === 'near' ? nearCheck(other, ctx, rule).est : ratioCheck(other, ctx).est;
    if (est.n) articleClockEstimate = figures(est);
  }
  const status = untestable.length ? UNTESTABLE : decided.status;
  return {
    ...base, ...clockFields, status, ...figures(parts.est), thresholds: rule,
    ...(parts.at !== undefined ? { at: parts.at } : {}), ...(parts.ref !== undefined ? { ref: parts.ref } : {}),
    ...(parts.points?.length ? { points: parts.points } : {}), ...(parts.flat !== undefined ? { flat: parts.flat } : {}),
    ...(parts.sides ? { sides: parts.sides } : {}), articleClockEstimate,
    reasons: untestable.length ? untestable : decided.reasons,
    // what was measured where the finding could not be tested: the figures stay, the status says why not
    ...(untestable.length ? { measuredInstead: { status: decided.status, reasons: decided.reasons } } : {}),
    ...extras, mechanism: tested && !untestable.length ? mechanismOf(finding, own) : null, shared,
  };
}

/**
 * A finding that compares servers (the compressed engine against the uncompressed one): the
 * servers are chosen by a field of their records, and it cannot be tested unless the run had
 * both. Their blocks pair by round where the conductor interleaved them; else one reading each.
 */
function judgeAcross(finding, ctx, base) {
  const { a, b } = finding.across;
  const serverOf = (sel) => ctx.records.find((r) => matches(r, { where: sel }))?.server;
  const sa = serverOf(a.select);
  const sb = serverOf(b.select);
  const c = checkOf(finding);
  const rule = ruleOf(c);
  const clockFields = { field: c.field, clock: fieldInfo(c.field).clock, articleClock: finding.clock?.article ? fieldInfo(finding.clock.article).clock : null };
  const empty = { ...base, ...clockFields, server: 'all servers', ratio: null, lo: null, hi: null, n: 0, method: null, thresholds: rule, context: [], mechanism: null, shared: false };
  if (!sa || !sb) return { ...empty, status: UNTESTABLE, reasons: [{ code: 'needs-other-engine', hint: finding.across.hint }] };
  // one server's records as the numerator, the other's as the denominator: a check across servers
  const where = c.where || {};
  const relabel = (records, server, side) => records.filter((r) => r.server === server).map((r) => ({ ...r, server: 'across', acrossSide: side }));
  const pool = (records) => [...relabel(records, sa, 'a'), ...relabel(records, sb, 'b')];
  const sub = { ...ctx, server: 'across', records: pool(ctx.records), blocks: pool(ctx.blocks), raw: pool(ctx.raw) };
  const across = { ...c, num: { ...where, acrossSide: 'a' }, den: { ...where, acrossSide: 'b' } };
  const cmp = comparison(across, sub, across.num, across.den);
  const est = estimateOf(cmp);
  let decided = est.n ? decide(rule, est) : { status: UNTESTABLE, reasons: [{ code: 'not-measured', where: 'on both' }] };
  // a size is no timing: one reading of it is the figure, not a reading wanting an interval
  if (!fieldInfo(c.field).clock) decided = { ...decided, reasons: decided.reasons.filter((x) => x.code !== 'one-reading') };
  const short = [HOLDS, FAILS].includes(decided.status) ? shortSpans(cmp.records, [c.field], ctx.descriptor, (r) => `${fieldInfo(c.field).words} on ${r.acrossSide === 'a' ? sa : sb}`) : [];
  if (short.length) decided = { status: INCONCLUSIVE, reasons: [tooShortReason(short)] };
  const why = [[sa, a], [sb, b]].flatMap(([server]) => unmet(finding.requires, ctx.records.filter((r) => r.server === server))
    .map((reason) => ({ ...reason, text: `on ${server}: ${reason.text}` })));
  // other servers of the run beside it, against the same reference (snappy beside zstd)
  const vb = cmp.den?.value;
  const also = (finding.across.also || []).map((o) => {
    const so = serverOf(o.select);
    const vo = so ? pick(ctx.records.filter((r) => r.server === so), where).find((r) => Number.isFinite(r[c.field]))?.[c.field] : undefined;
    return Number.isFinite(vo) && vb ? { label: o.label, server: so, ratio: vo / vb } : null;
  }).filter(Boolean);
  let articleClockEstimate = null;
  if (finding.clock && finding.clock.article !== finding.clock.decides) {
    const other = estimateOf(comparison({ ...across, field: finding.clock.article }, sub, across.num, across.den, { field: finding.clock.article }));
    if (other.n) articleClockEstimate = figures(other);
  }
  return {
    ...empty, servers: [sa, sb], status: why.length ? UNTESTABLE : decided.status, ...figures(est),
    sides: { num: cmp.num && { ...sideFigure(cmp.num, {}), label: sa }, den: cmp.den && { ...sideFigure(cmp.den, {}), label: sb } },
    also, articleClockEstimate, reasons: why.length ? why : decided.reasons, ...(why.length ? { measuredInstead: decided } : {}),
  };
}

/** The check kinds a finding may name. */
const CHECK_KINDS = ['ratio', 'near', 'growth', 'crossing', 'publishedOnly'];

module.exports = { judge, checkOf, unmet, mechanismOf, pairKey, CHECK_KINDS };
