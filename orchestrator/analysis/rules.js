'use strict';
// Each check's rule as one threshold table, read both by the decision (statusOf) and by the bands
// the report draws (bandsOf), so the two can never disagree. The table is a list of bands on the
// ratio's scale, each with the status an interval wholly inside it gets; an interval across an
// edge between two bands is inconclusive, and says which edge.
//
// A rule says what the claim said (published.json: the finding's figure and its check's `says`):
// - order: "28× faster", an effect of that order. Holds where the whole 95% interval is at least
//   the square root of the article's figure: nearer the article's effect than no effect at all,
//   on a log scale (ORDER_SHARE). Past "no effect" (the check's margin) in the article's
//   direction but below that, it holds, weaker: the effect is there, smaller than the article's.
// - about: "about 3 times", a band around the figure on a log scale (figure ÷ band to figure ×
//   band): holds where the whole interval is inside it, equivalence as two one-sided tests would
//   have it (here on the 95% interval, stricter than those tests' 90%). Above the band it does
//   not hold (a larger effect than "about"); between no effect and the band, holds, weaker.
// - near: "about as fast", the band around 1: holds inside it, does not hold wholly outside it.
// - a direction alone (the kit's own questions, which no article sized): holds past atLeast (or
//   under atMost), does not hold at the failing threshold, inconclusive between.

const { CHANGE_P } = require('./change');

const HOLDS = 'holds';
const WEAKER = 'holds, weaker';
const FAILS = 'does not hold';
const INCONCLUSIVE = 'inconclusive';
const NEEDS_SIZE = 'needs a larger size';
const UNTESTABLE = 'cannot be tested here';
const PUBLISHED_ONLY = 'published only';
/** The verdict words, in the order a tally or a legend lists them. */
const STATUSES = [HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE, PUBLISHED_ONLY];
/** The statuses a verdict decided by its interval can have: the claim held, held weaker, or failed. */
const DECIDED = [HOLDS, WEAKER, FAILS];
/** The statuses of a finding that was measured and judged (decided or not). */
const TESTED = [...DECIDED, INCONCLUSIVE];

/**
 * compare's thresholds (analysis/comparison.js), with the verdicts' own: p, the level a difference
 * test's p must pass after Holm's correction across the rows tested together (change.js's), and
 * noise, the margin of B/A the user allows (--noise): a tested row changed only where its whole
 * interval lies past it (criterion.rs), the same where it lies within it; and where a run holds no
 * standard error of its own, the margin its B/A is held to.
 */
const COMPARISON_RULE = Object.freeze({ p: CHANGE_P, noise: 0.1 });
/** A comparison's statuses: a figure changed between the two runs, stayed the same, or the test cannot tell. */
const CHANGED = 'changed';
const SAME = 'same';
const CANNOT_TELL = 'cannot tell';

/** "Of that order": at least this share of the article's effect on a log scale (½: nearer it than no effect). */
const ORDER_SHARE = 0.5;

/** The failing threshold ("no effect") of a check that has a direction: failAtMost/failAtLeast, else 1 ± margin. */
function noEffectOf(check, up) {
  if (up) return check.failAtMost ?? (check.margin !== undefined ? 1 + check.margin : undefined);
  return check.failAtLeast ?? (check.margin !== undefined ? 1 - check.margin : undefined);
}

/**
 * The article's figure a check is held to: its figure, or a growth's at the largest x of the
 * article's (figureAt) the run reached (its smallest where the run reached none).
 */
function figureOf(check, at) {
  if (Array.isArray(check.figureAt) && check.figureAt.length) {
    const points = [...check.figureAt].sort((a, b) => a.x - b.x);
    if (!Number.isFinite(at)) return points.at(-1).ratio;
    return (points.filter((p) => p.x <= at).at(-1) ?? points[0]).ratio;
  }
  return check.figure;
}

/**
 * A rule held to the article's figure (says: order, about) or to a direction alone (atLeast or
 * atMost, the kit's own questions): { says, direction ('atLeast' | 'atMost'), holdsAt, failsAt,
 * figure?, upTo? (an about band's far edge) }, or null where the threshold table is not whole. at:
 * the x a growth was decided at (its figure there). The ratio and growth kinds' rule (checks/).
 */
function figureRule(check, { at } = {}) {
  if (check.says === 'order' || check.says === 'about') {
    const figure = figureOf(check, at);
    if (!(figure > 0) || figure === 1) return null;
    const up = figure > 1;
    const failsAt = noEffectOf(check, up);
    if (!Number.isFinite(failsAt)) return null;
    const direction = up ? 'atLeast' : 'atMost';
    if (check.says === 'order') return { says: 'order', direction, figure, holdsAt: figure ** ORDER_SHARE, failsAt };
    if (!(check.band > 1)) return null;
    return { says: 'about', direction, figure, holdsAt: up ? figure / check.band : figure * check.band, upTo: up ? figure * check.band : figure / check.band, failsAt };
  }
  if (check.atMost !== undefined) {
    const failsAt = noEffectOf(check, false);
    return Number.isFinite(failsAt) ? { says: 'direction', direction: 'atMost', holdsAt: check.atMost, failsAt } : null;
  }
  const failsAt = noEffectOf(check, true);
  return Number.isFinite(check.atLeast) && Number.isFinite(failsAt) ? { says: 'direction', direction: 'atLeast', holdsAt: check.atLeast, failsAt } : null;
}

/** "About as fast": the band of a tolerance around 1, either way (the near kind's rule); null without one. */
function nearRule(tolerance) {
  if (!(tolerance > 0)) return null;
  return { says: 'about', direction: 'near', figure: 1, holdsAt: 1 + tolerance, failsAt: 1 + tolerance };
}

/**
 * A check's rule, as its kind (analysis/checks/) makes it from its threshold table, or null for
 * a kind that is no ratio (a crossing, a finding only published) and for a threshold table that
 * is not whole (the contract check refuses such a finding: scenarioProblems). at: the x a growth
 * was decided at.
 */
function ruleOf(check, { at } = {}) {
  if (!check) return null;
  // required here: each kind's file builds its rule from this file's tables
  const kind = require('./checks').kindOf(check.kind);
  return kind?.rule ? kind.rule(check, { at }) : null;
}

/**
 * A growth's flatness part: the other series within a factor atMost of itself, either way, at the
 * growth's two points (a near rule on a log scale), failing beyond failAtLeast.
 */
function flatRuleOf(check) {
  const flat = check?.flat;
  if (!flat || !Number.isFinite(flat.atMost) || !Number.isFinite(flat.failAtLeast)) return null;
  return { says: 'about', direction: 'near', figure: 1, holdsAt: flat.atMost, failsAt: flat.failAtLeast };
}

/**
 * What is wrong with a ratio's threshold table, in words, or null: every ratio (a ratio, a near,
 * a growth) can say "does not hold". Each kind's ruleProblem starts here; figureAt: the kind may
 * hold its check to the article's figure at several points.
 */
function thresholdProblem(check, { figureAt = false } = {}) {
  if (check.says === 'order' || check.says === 'about') {
    const figures = Array.isArray(check.figureAt) && check.figureAt.length ? check.figureAt.map((p) => p.ratio) : [check.figure];
    if (!figures.every((f) => f > 0 && f !== 1)) return `a check that says "${check.says}" needs the article's figure (the finding's figure${figureAt ? ', or its check\'s figureAt' : ''}), a ratio other than 1`;
    if (check.says === 'about' && !(check.band > 1)) return 'a check that says "about" needs a band above 1 (the factor either way of the article\'s figure)';
    for (const f of figures) {
      const rule = ruleOf({ ...check, figureAt: undefined, figure: f });
      if (!rule) return `a check that says "${check.says}" needs a failing threshold (margin, failAtMost or failAtLeast): without it it could never say "does not hold"`;
      const beyond = rule.direction === 'atLeast' ? rule.holdsAt > rule.failsAt : rule.holdsAt < rule.failsAt;
      if (!beyond) return `the article's figure ${f} is too near no effect (${rule.failsAt}) to tell its ${check.says === 'order' ? 'order' : 'band'} from a weaker effect`;
    }
  } else if (!ruleOf(check)) {
    return `a ${check.kind} check needs ${check.atMost !== undefined ? 'atMost and failAtLeast or margin' : 'atLeast and failAtMost or margin'}: without a failing threshold it could never say "does not hold"`;
  } else {
    const rule = ruleOf(check);
    if (rule.direction === 'atLeast' && !(rule.failsAt < rule.holdsAt)) return `its failing threshold ${rule.failsAt} is not below its holding one ${rule.holdsAt}`;
    if (rule.direction === 'atMost' && !(rule.failsAt > rule.holdsAt)) return `its failing threshold ${rule.failsAt} is not above its holding one ${rule.holdsAt}`;
  }
  return null;
}

/** What is wrong with a check's threshold table, in words, as its kind says it, or null. */
function ruleProblem(check) {
  const kind = require('./checks').kindOf(check?.kind);
  return kind?.ruleProblem ? kind.ruleProblem(check) : null;
}

/** Bands on a scale that runs upwards (the article's effect above 1), from 0 to Infinity. */
function upBands(rule) {
  const { holdsAt, failsAt } = rule;
  if (rule.says === 'order') return [{ from: 0, to: failsAt, status: FAILS }, { from: failsAt, to: holdsAt, status: WEAKER }, { from: holdsAt, to: Infinity, status: HOLDS }];
  if (rule.says === 'about') return [{ from: 0, to: failsAt, status: FAILS }, { from: failsAt, to: holdsAt, status: WEAKER }, { from: holdsAt, to: rule.upTo, status: HOLDS }, { from: rule.upTo, to: Infinity, status: FAILS }];
  return [{ from: 0, to: failsAt, status: FAILS }, { from: failsAt, to: holdsAt, status: INCONCLUSIVE }, { from: holdsAt, to: Infinity, status: HOLDS }];
}

/** Bands read the other way round (1/x): an effect below 1 is an effect above it, mirrored. */
const mirror = (bands) => [...bands].reverse().map((b) => ({ from: b.to === Infinity ? 0 : 1 / b.to, to: b.from === 0 ? Infinity : 1 / b.from, status: b.status }));

/**
 * The rule's bands on the ratio's scale, as segments { from, to, status } (0 and Infinity at the
 * ends), for the decision and for the report to draw; null where the check is no ratio.
 */
function bandsOf(rule) {
  if (!rule) return null;
  if (rule.direction === 'near') {
    const { holdsAt: h, failsAt: f } = rule;
    const margin = f > h;
    return [
      { from: 0, to: 1 / f, status: FAILS },
      ...(margin ? [{ from: 1 / f, to: 1 / h, status: INCONCLUSIVE }] : []),
      { from: 1 / h, to: h, status: HOLDS },
      ...(margin ? [{ from: h, to: f, status: INCONCLUSIVE }] : []),
      { from: f, to: Infinity, status: FAILS },
    ];
  }
  if (rule.direction === 'atMost') {
    const up = { ...rule, holdsAt: 1 / rule.holdsAt, failsAt: 1 / rule.failsAt, ...(rule.upTo ? { upTo: 1 / rule.upTo } : {}) };
    return mirror(upBands(up));
  }
  return upBands(rule);
}

/** Which threshold an edge between two bands is, by the statuses either side of it. */
function edgeRole(below, above) {
  const pair = new Set([below, above]);
  if (pair.has(HOLDS) && pair.has(FAILS)) return 'band';
  if (pair.has(HOLDS)) return 'holds';
  return 'fails';
}

/** When bands share an edge and an interval sits exactly on it, which status it takes first. */
const PRIORITY = [HOLDS, FAILS, WEAKER, INCONCLUSIVE];

/**
 * The status an interval [lo, hi] gives under a rule, with the edge it straddles where it
 * straddles one: { status, straddles: null | { which: 'holds' | 'fails' | 'band', at }, band }.
 * An interval wholly inside a band takes the band's status (a direction rule's middle band is
 * inside its margin, inconclusive); across an edge, inconclusive, naming the edge: the holding
 * threshold first where it crosses several.
 */
function statusOf(rule, lo, hi) {
  const bands = bandsOf(rule);
  const inside = bands.filter((b) => lo >= b.from && hi <= b.to).sort((a, b) => PRIORITY.indexOf(a.status) - PRIORITY.indexOf(b.status));
  if (inside.length) return { status: inside[0].status, straddles: null, band: inside[0] };
  const edges = bands.slice(1).map((b, i) => ({ at: b.from, which: edgeRole(bands[i].status, b.status) })).filter((e) => lo < e.at && hi > e.at);
  const order = ['holds', 'band', 'fails'];
  edges.sort((a, b) => order.indexOf(a.which) - order.indexOf(b.which));
  return { status: INCONCLUSIVE, straddles: edges[0] ?? null, band: null };
}

module.exports = {
  ruleOf, figureRule, nearRule, flatRuleOf, thresholdProblem, ruleProblem, statusOf, bandsOf, figureOf,
  HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE, PUBLISHED_ONLY, STATUSES, DECIDED, TESTED, ORDER_SHARE, COMPARISON_RULE, CHANGED, SAME, CANNOT_TELL,
};
