'use strict';
// Each check's rule as one threshold table, read both by the decision (statusOf) and by the bands
// the report draws (bandsOf), so the two can never disagree. A ratio holds only where its whole
// 95% interval is past the holding threshold, does not hold only where the whole interval is past
// the failing one, and is inconclusive otherwise; a single reading (a run recorded before
// pairing) is its own interval.

const HOLDS = 'holds';
const FAILS = 'does not hold';
const INCONCLUSIVE = 'inconclusive';
const UNTESTABLE = 'cannot be tested here';
const PUBLISHED_ONLY = 'published only';
/** The verdict words, in the order a tally or a legend lists them. */
const STATUSES = [HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY];

/**
 * A ratio rule: { direction, holdsAt, failsAt }.
 * - atLeast: holds at holdsAt or more; does not hold at failsAt or less (failAtMost, else 1 + margin).
 * - atMost: holds at holdsAt or less; does not hold at failsAt or more (failAtLeast, else 1 − margin).
 * - near: judged on a log scale, so 0.8 and 1.25 are alike: holds within a factor holdsAt of 1
 *   either way (1 + tolerance), does not hold beyond a factor failsAt (1 + failTolerance, else
 *   1 + 2 × tolerance).
 * Null for checks that are no ratio (a crossing, a finding only published) and for a threshold
 * table that is not whole (the contract check refuses such a finding: scenarioProblems).
 */
function ruleOf(check) {
  if (!check) return null;
  if (check.kind === 'near') {
    if (!(check.tolerance > 0)) return null;
    return { direction: 'near', holdsAt: 1 + check.tolerance, failsAt: 1 + (check.failTolerance ?? 2 * check.tolerance) };
  }
  if (check.kind !== 'ratio' && check.kind !== 'growth') return null;
  if (check.atMost !== undefined) {
    const failsAt = check.failAtLeast ?? (check.margin !== undefined ? 1 - check.margin : undefined);
    return Number.isFinite(failsAt) ? { direction: 'atMost', holdsAt: check.atMost, failsAt } : null;
  }
  const failsAt = check.failAtMost ?? (check.margin !== undefined ? 1 + check.margin : undefined);
  return Number.isFinite(check.atLeast) && Number.isFinite(failsAt) ? { direction: 'atLeast', holdsAt: check.atLeast, failsAt } : null;
}

/**
 * A growth's flatness part: the other series within a factor atMost of itself, either way, at the
 * growth's two points (a near rule on a log scale), failing beyond failAtLeast.
 */
function flatRuleOf(check) {
  const flat = check?.flat;
  if (!flat || !Number.isFinite(flat.atMost) || !Number.isFinite(flat.failAtLeast)) return null;
  return { direction: 'near', holdsAt: flat.atMost, failsAt: flat.failAtLeast };
}

/** What is wrong with a check's threshold table, in words, or null: every ratio can say "does not hold". */
function ruleProblem(check) {
  if (!['ratio', 'near', 'growth'].includes(check?.kind)) return null;
  if (!ruleOf(check)) {
    if (check.kind === 'near') return 'a near check needs a tolerance above 0';
    return `a ${check.kind} check needs ${check.atMost !== undefined ? 'atMost and failAtLeast or margin' : 'atLeast and failAtMost or margin'}: without a failing threshold it could never say "does not hold"`;
  }
  const rule = ruleOf(check);
  if (rule.direction === 'atLeast' && !(rule.failsAt < rule.holdsAt)) return `its failing threshold ${rule.failsAt} is not below its holding one ${rule.holdsAt}`;
  if (rule.direction === 'atMost' && !(rule.failsAt > rule.holdsAt)) return `its failing threshold ${rule.failsAt} is not above its holding one ${rule.holdsAt}`;
  if (rule.direction === 'near' && !(rule.failsAt >= rule.holdsAt)) return 'its failing tolerance is narrower than its holding one';
  if (check.flat && !flatRuleOf(check)) return 'a growth\'s flat part needs atMost and failAtLeast';
  if (check.flat && !(check.flat.failAtLeast > check.flat.atMost)) return 'a growth\'s flat failAtLeast must be above its atMost';
  return null;
}

/**
 * The status an interval [lo, hi] gives under a rule, with the threshold it straddles where it is
 * inconclusive: { status, straddles: null | { which: 'holds' | 'fails', at } }. An interval wholly
 * between the thresholds straddles neither (inside the margin).
 */
function statusOf(rule, lo, hi) {
  const inside = { status: INCONCLUSIVE, straddles: null };
  const straddle = (which, at) => ({ status: INCONCLUSIVE, straddles: { which, at } });
  if (rule.direction === 'atLeast') {
    if (lo >= rule.holdsAt) return { status: HOLDS, straddles: null };
    if (hi <= rule.failsAt) return { status: FAILS, straddles: null };
    if (hi >= rule.holdsAt) return straddle('holds', rule.holdsAt);
    if (lo <= rule.failsAt) return straddle('fails', rule.failsAt);
    return inside;
  }
  if (rule.direction === 'atMost') {
    if (hi <= rule.holdsAt) return { status: HOLDS, straddles: null };
    if (lo >= rule.failsAt) return { status: FAILS, straddles: null };
    if (lo <= rule.holdsAt) return straddle('holds', rule.holdsAt);
    if (hi >= rule.failsAt) return straddle('fails', rule.failsAt);
    return inside;
  }
  // near, on a log scale: how far each end is from 1, as a factor
  const within = (x, factor) => x >= 1 / factor && x <= factor;
  if (within(lo, rule.holdsAt) && within(hi, rule.holdsAt)) return { status: HOLDS, straddles: null };
  if (hi < 1 / rule.failsAt || lo > rule.failsAt) return { status: FAILS, straddles: null };
  if (within(lo, rule.holdsAt) || within(hi, rule.holdsAt) || (lo < 1 && hi > 1)) return straddle('holds', hi > rule.holdsAt ? rule.holdsAt : 1 / rule.holdsAt);
  if (hi > rule.failsAt || lo < 1 / rule.failsAt) return straddle('fails', hi > rule.failsAt ? rule.failsAt : 1 / rule.failsAt);
  return inside;
}

/**
 * The rule's bands on the ratio's scale, as segments { from, to, status } (0 and Infinity at the
 * ends), for the report to draw; null where the check is no ratio.
 */
function bandsOf(rule) {
  if (!rule) return null;
  if (rule.direction === 'atLeast') {
    return [{ from: 0, to: rule.failsAt, status: FAILS }, { from: rule.failsAt, to: rule.holdsAt, status: INCONCLUSIVE }, { from: rule.holdsAt, to: Infinity, status: HOLDS }];
  }
  if (rule.direction === 'atMost') {
    return [{ from: 0, to: rule.holdsAt, status: HOLDS }, { from: rule.holdsAt, to: rule.failsAt, status: INCONCLUSIVE }, { from: rule.failsAt, to: Infinity, status: FAILS }];
  }
  return [
    { from: 0, to: 1 / rule.failsAt, status: FAILS }, { from: 1 / rule.failsAt, to: 1 / rule.holdsAt, status: INCONCLUSIVE },
    { from: 1 / rule.holdsAt, to: rule.holdsAt, status: HOLDS },
    { from: rule.holdsAt, to: rule.failsAt, status: INCONCLUSIVE }, { from: rule.failsAt, to: Infinity, status: FAILS },
  ];
}

module.exports = {
  ruleOf, flatRuleOf, ruleProblem, statusOf, bandsOf, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY, STATUSES,
};
