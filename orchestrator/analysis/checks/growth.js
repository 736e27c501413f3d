'use strict';
// The growth kind: one series' time per unit at its largest x against its fastest x ("pushes slow
// down sharply past 1,000 comments"), held to the article's figure there (figureAt), and where the
// finding says so, a second series staying flat between the same two points. Either part failing
// fails it; a weaker slowdown beside a flat series holds, weaker.
const { singleEstimate } = require('../estimate');
const {
  describeSelection, sideRecords, splitBlocks, samplesOf, pairKey, blockPlace, plannedRounds, repeatsIn, repeatKey, estimateFromPairs,
} = require('../pairing');
const { decide, figures } = require('../decide');
const { figureRule, figureOf, flatRuleOf, thresholdProblem, HOLDS, WEAKER, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../rules');
const { thresholdText, flatText } = require('./threshold-words');

/**
 * A growth: one series' time per unit at its largest x against its fastest x, and where the
 * finding says so, a second series staying flat (the same two x, either way). Each as a
 * ratio of paired samples: the cells of one round are timed in the same round.
 */
function growthCheck(check, ctx) {
  const series = (where) => {
    const keyed = (recs, keyOf, placeOf) => {
      const byX = new Map();
      for (const r of recs) {
        if (!Number.isFinite(r[check.x]) || !Number.isFinite(r[check.field])) continue;
        if (!byX.has(r[check.x])) byX.set(r[check.x], []);
        byX.get(r[check.x]).push(r);
      }
      return new Map([...byX].map(([x, rs]) => [x, samplesOf(rs, check.field, keyOf, { per: check.per, placeOf })]));
    };
    const label = describeSelection(where);
    const blocks = sideRecords(ctx.blocks, where, ctx.server);
    if (blocks.length) {
      const { counted, dropped } = splitBlocks(blocks);
      return { source: 'blocks', byX: keyed(counted, pairKey, blockPlace), records: counted, planned: plannedRounds(blocks), label, dropped: dropped.map(({ record, reason }) => ({ side: `${label} at ${record[check.x]}`, ...blockPlace(record), reason, x: record[check.x] })) };
    }
    const raw = sideRecords(ctx.raw, where, ctx.server);
    if (repeatsIn(raw) >= 2) return { source: 'repeats', byX: keyed(raw.filter((r) => r.repeat >= 1), repeatKey, (r) => ({ round: null, repeat: r.repeat })), records: raw, planned: repeatsIn(raw), label, dropped: [] };
    const agg = sideRecords(ctx.records, where, ctx.server);
    return { source: 'single', byX: keyed(agg, () => 'single', () => ({ round: null, repeat: 0 })), records: agg, planned: 1, label, dropped: [] };
  };
  // the typical value of an x: the geometric mean of its samples
  const typical = (samples) => { const v = [...samples.values()].filter((x) => x > 0); return v.length ? Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length) : NaN; };
  const between = (s, hiX, loX) => {
    const a = s.byX.get(hiX);
    const b = s.byX.get(loX);
    const keys = [...a.keys()].filter((k) => b.has(k));
    const alone = [...a.keys(), ...b.keys()].filter((k) => !(a.has(k) && b.has(k)));
    const est = estimateFromPairs(keys.map((k) => ({ num: a.get(k), den: b.get(k), ratio: a.get(k) / b.get(k), numMs: a.spans.get(k), denMs: b.spans.get(k), ...a.places.get(k) })), { planned: s.planned, source: s.source });
    const atTwo = (d) => d.x === hiX || d.x === loX;
    const dropped = [...s.dropped.filter(atTwo).map(({ x, ...d }) => d), ...alone.map((k) => ({ side: s.label, ...(a.places.get(k) || b.places.get(k)), reason: 'partner-missing' })), ...est.dropped];
    return { est, dropped, groups: [hiX, loX].map((x) => ({ label: `${s.label} at ${x}`, records: s.records.filter((r) => r[check.x] === x) })) };
  };
  const grow = series(check.grows);
  const xs = [...grow.byX.keys()].sort((p, q) => p - q);
  if (xs.length < 2) return { est: singleEstimate(NaN, NaN), points: xs.length, records: grow.records, groups: [], dropped: [] };
  const maxX = xs.at(-1);
  const fastest = xs.reduce((m, x) => (typical(grow.byX.get(x)) < typical(grow.byX.get(m)) ? x : m));
  const g = between(grow, maxX, fastest);
  // the other series at the same two points: where the one slowed, did the other stay level?
  // (its own slowest against its fastest would pick its noisiest pair, biased above 1)
  let flat = null;
  if (check.flat) {
    const f = series(check.flat.where);
    if (f.byX.has(maxX) && f.byX.has(fastest) && maxX !== fastest) {
      const fb = between(f, maxX, fastest);
      flat = { est: fb.est, at: maxX, ref: fastest, records: f.records, groups: fb.groups };
    } else {
      flat = { est: null, records: f.records, groups: [] };
    }
  }
  return {
    est: g.est, at: maxX, ref: fastest, flat, records: [...grow.records, ...(flat?.records || [])], source: grow.source,
    groups: [...g.groups, ...(flat?.groups || [])], dropped: g.dropped,
  };
}
/**
 * A growth: one series' time per unit at its largest x against its fastest x, and where the
/**
 * a and b over x (sizes per pass): a starts above b by more than the margin and ends below it by
/**
 * How the server found its documents where a recorded plan says it read them all (a table or
/**
 * The network's reason where what this server's operations waited for on the network could have
/**
 * A verdict's status where it was measured but cannot be tested: needs a larger size where every
/**
 * The verdict of one finding on one server. ctx: { scenario, server, records (the scenario's
/**
 * The article's own figure for a finding, from its published.json (figure: a field, never read
/**
 * Where a growth was measured up to a smaller x than the article's (1,000 comments per blog where
/**
 * A finding that compares servers (the compressed engine against the uncompressed one): the

/** The growth judged on a server, as judge.js finishes every kind's: its rule is the article's figure at the x it reached. */
function judge(c, ctx, { timed }) {
  const r = growthCheck(c, ctx);
  const rule = figureRule(c, { at: r.at });
  const detail = { at: r.at ?? null, ref: r.ref ?? null, x: c.x ?? null };
  if (!r.est.n) return { decided: { status: UNTESTABLE, reasons: [{ code: 'too-few-points', points: r.points ?? 0 }] }, rule, est: r.est, detail, groups: r.groups, dropped: r.dropped };
  const growth = decide(rule, r.est, { timed });
  const flatRule = flatRuleOf(c);
  let flat = null;
  let flatReasons = [];
  if (r.flat && r.flat.est) {
    const fd = decide(flatRule, r.flat.est, { timed });
    flat = { ...figures(r.flat.est), status: fd.status, holdsAt: flatRule.holdsAt, failsAt: flatRule.failsAt, at: r.flat.at, ref: r.flat.ref };
    if (fd.status === FAILS) flatReasons = [{ code: 'not-flat', ratio: r.flat.est.ratio, lo: r.flat.est.lo, hi: r.flat.est.hi, at: flatRule.failsAt }];
    // too few pairs is said once, by the growth's own reason: its pairs are the same rounds'
    else if (fd.status === INCONCLUSIVE && !fd.reasons.some((x) => ['too-few-pairs', 'one-reading'].includes(x.code))) flatReasons = [{ code: 'flat-straddles', ratio: r.flat.est.ratio, lo: r.flat.est.lo ?? r.flat.est.ratio, hi: r.flat.est.hi ?? r.flat.est.ratio, at: flatRule.holdsAt }];
    else if (fd.status === INCONCLUSIVE && growth.status !== INCONCLUSIVE) flatReasons = fd.reasons;
  } else if (r.flat) {
    flatReasons = [{ code: 'flat-unmeasured' }];
  }
  // the claim is both: one series slows and the other stays flat; either part failing fails
  // it, and a weaker slowdown beside a flat series holds, weaker
  const flatStatus = flat ? flat.status : (r.flat ? INCONCLUSIVE : HOLDS);
  let status = INCONCLUSIVE;
  if (growth.status === FAILS || flatStatus === FAILS) status = FAILS;
  else if ([HOLDS, WEAKER].includes(growth.status) && flatStatus === HOLDS) status = growth.status;
  const reasons = status === FAILS ? (growth.status === FAILS ? growth.reasons : flatReasons) : [...growth.reasons, ...flatReasons];
  return { decided: { status, reasons }, rule, est: r.est, detail: { ...detail, flat }, groups: r.groups, dropped: r.dropped };
}

/**
 * Where a growth was measured up to a smaller x than the article's (1,000 comments per blog where
 * the article went to 10,000), the article's own growth at the largest of its points the run
 * reached (its check's figureAt, the figure the rule held it to): { x, ratio }, else null.
 */
function articleAtRunSize(finding, at) {
  const points = finding.check?.figureAt;
  if (finding.source === 'kit' || !Number.isFinite(at) || !points?.length) return null;
  if (at >= Math.max(...points.map((p) => p.x))) return null;
  const reached = points.filter((p) => p.x <= at).sort((a, b) => a.x - b.x).at(-1);
  return reached ? { x: reached.x, ratio: figureOf(finding.check, at) } : null;
}

/** A growth's problems: its threshold table's, then its flat part's. */
function ruleProblem(check) {
  const problem = thresholdProblem(check, { figureAt: true });
  if (problem) return problem;
  if (check.flat && !flatRuleOf(check)) return 'a growth\'s flat part needs atMost and failAtLeast';
  if (check.flat && !(check.flat.failAtLeast > check.flat.atMost)) return 'a growth\'s flat failAtLeast must be above its atMost';
  return null;
}

module.exports = {
  kind: 'growth',
  about: 'a series\' cost per unit grows with x',
  decides: true,
  saysFigure: true,
  // the largest x against the fastest (ref), the flat series between them, the article's figure at the run's largest x
  detailFields: ['at', 'ref', 'x', 'flat', 'articleAtRunSize'],
  rule: figureRule,
  ruleProblem,
  words: (check) => { const text = thresholdText(check); return text ? `${text}${flatText(check)}` : ''; },
  judge,
  articleAtRunSize,
};
