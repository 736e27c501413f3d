'use strict';
// One finding on one server's records, made into a verdict once: its status, its ratio with a 95%
// interval and the pairs it rests on, the clock it was decided on, the article's figure, the
// rule's thresholds and its reasons as codes (orchestrator/analysis/reasons.js gives their
// words), and what it rests on (evidence.js: the pairs, what was left out and why, outliers,
// drift, contention). Every view (report.html, summary.md, verdicts.png, verdicts.json, compare)
// reads these fields; none reads a figure back out of a sentence.
//
// Each kind of check (analysis/checks/: a ratio, near, growth, crossing, or a finding only
// published) judges its own figure; this file holds what every kind shares: the finding's
// preconditions and size, then what the verdict rests on and the reasons a server, its network
// and the run add. The paired samples each comparison rests on are pairing.js's (docs/outputs.md,
// "Paired rounds"): a run that paired its blocks is judged on them alone, and a run recorded
// before pairing on its repeats (--repeat), else on its one reading per side, undecided.
const { matches, readsEveryDocument, valueAt } = require('../results/records');
const { unmet, sizeTooSmall, untestedStatus } = require('./requirements');
const { fieldInfo } = require('../results/fields');
const { withNetwork, networkOfSides } = require('./network');
const { flowControlReason, flowControlUnknownReason } = require('./replication');
const { membersMayDifferReason, readConcernReason } = require('./members');
const { checkEvidence } = require('./evidence');
const { makeVerdict } = require('./verdict');
const { InternalError } = require('../errors');
const { decide, ruleReasons, figures } = require('./decide');
const { conditionsOf } = require('./conditions');
const {
  pick, inSelection, describeSelection, sideLabel, comparison, estimateOf, estimateWithout, estimateAgain, sideFigure,
} = require('./pairing');
const { kindOf, CHECK_KINDS } = require('./checks');
const { ruleOf, INCONCLUSIVE, UNTESTABLE, TESTED } = require('./rules');

/**
 * The check a finding is decided by, with the article's figure its rule is held to: one that
 * names its clock (clock.decides) is decided on that field whatever its check says, and the
 * article's clock (clock.article) is what a baseline that recorded nothing on the deciding clock
 * is read on (its own clock stops once every write is applied: it waited for each).
 */
function checkOf(finding) {
  const { clock, check } = finding;
  const withFigure = finding.figure !== undefined ? { ...check, figure: finding.figure } : check;
  return clock ? { ...withFigure, field: clock.decides, baselineField: clock.article } : withFigure;
}


/** What the server did that a reader needs beside the figure (its write concern, its plan): [{ label, values }]. */
function contextOf(finding, records) {
  return (finding.context || []).map((c) => ({
    label: c.label,
    values: [...new Set(pick(records, c.where || {}).map((r) => valueAt(r, c.field)).filter((v) => v !== undefined && v !== null)
      .map((v) => (typeof v === 'object' ? [v.outcome, v.reason].filter(Boolean).join(': ') : String(v))))],
  })).filter((c) => c.values.length);
}

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
  return decidedOn.some(readsEveryDocument) ? 'by a table scan' : null;
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


/** What a verdict rests on as the verdict carries it: the checked evidence and what was left out. */
const restsOn = (evidence, dropped) => ({ ...evidence, dropped: dropped.map(({ side, round, repeat, reason, n }) => ({ side: side ?? null, round: round ?? null, repeat: repeat ?? 0, reason, ...(n !== undefined ? { n } : {}) })) });

/**
 * How a verdict ends, whatever its kind or its servers: its status (where the finding could not
 * be tested, why, with what was measured instead), its figures, its reasons, the article's clock
 * beside the deciding one, and what it rests on.
 */
function concluded({ untestable, decided, est, evidence, dropped, articleClockEstimate }) {
  return {
    status: untestable.length ? untestedStatus(untestable) : decided.status, ...figures(est), articleClockEstimate,
    reasons: untestable.length ? untestable : decided.reasons,
    // what was measured where the finding could not be tested: the figures stay, the status says why not
    ...(untestable.length ? { measuredInstead: { status: decided.status, reasons: decided.reasons } } : {}),
    ...restsOn(evidence, dropped),
  };
}

/** The same comparison on the article's clock, beside the deciding one (estimateOn(field)), where they differ: its figures, or null. */
function onArticleClock(finding, estimateOn) {
  if (!estimateOn || !finding.clock || finding.clock.article === finding.clock.decides) return null;
  const est = estimateOn(finding.clock.article);
  return est.n ? figures(est) : null;
}

/** The fields of a verdict, before it is made (judge): the kind's own judgement, then what every kind shares. */
function judgement(finding, ctx) {
  const kind = kindOf(finding.check.kind);
  if (!kind) throw new InternalError(`finding ${finding.id}: no check of kind ${finding.check.kind}`);
  if (!kind.decides) {
    const { decided } = kind.judge(finding.check, ctx, {});
    return { status: decided.status, n: 0, thresholds: null, reasons: decided.reasons, detail: {} };
  }
  if (finding.across) return judgeAcross(finding, ctx);
  const own = ctx.records.filter((r) => r.server === ctx.server);
  const untestable = [...unmet(finding.requires, own), ...sizeTooSmall(finding, ctx.descriptor, ctx.sizes, ctx.sizeRecord)];
  const c = checkOf(finding);
  const timed = Boolean(c.field && fieldInfo(c.field).clock);
  const clockFields = { field: c.field ?? null, clock: c.field ? fieldInfo(c.field).clock : null, articleClock: finding.clock?.article ? fieldInfo(finding.clock.article).clock : null };
  const extras = { context: contextOf(finding, own), mechanism: null, shared: false };
  const out = kind.judge(c, ctx, { rule: ruleOf(c), timed });
  // a kind read as recorded (sizes, one reading each) rests on no pairs: nothing more to weigh
  if (out.readAsRecorded) {
    const status = untestable.length ? untestedStatus(untestable) : out.decided.status;
    return { ...clockFields, status, n: out.n, thresholds: null, detail: out.detail, reasons: [...untestable, ...out.decided.reasons], ...extras };
  }
  const { rule, est } = out;
  // what the verdict rests on: each side's median block against its floor, the outliers, drift and contention
  const counted = out.groups.flatMap((g) => g.records);
  const checked = checkEvidence(out.decided, { rule, est, groups: out.groups, fields: [c.field, c.baselineField], descriptor: ctx.descriptor, blocks: counted, estimateWithout: estimateWithout(est), estimateAgain: estimateAgain(est), sizeRecord: ctx.sizeRecord, finding, records: own });
  let { decided } = checked;
  if (out.missing) decided.reasons.push({ code: 'partner-missing', missing: out.missing });
  const tested = TESTED.includes(decided.status);
  // a server far away (or the hop inside a cluster): where what each operation waited for on the
  // network is more than half of its time, the network could have made the ratio: inconclusive
  if (tested) decided = withNetwork(decided, networkOf(c, ctx, own));
  // flow control throttled the primary's writes during a step the verdict rests on: said
  const throttled = tested ? flowControlReason(counted) : null;
  if (throttled) decided.reasons.push(throttled);
  // where flow control could not be read (through mongos, serverStatus refused) beside timed writes: said
  const flowUnknown = tested ? flowControlUnknownReason(counted) : null;
  if (flowUnknown) decided.reasons.push(flowUnknown);
  // reads that may have gone to several members, and a read concern the URI gave every timed read: said
  // only a verdict on reads (a record that names no write concern) or on sizes (bytes) rests on what a member answered
  // (this server's records: a baseline's are not)
  const served = counted.filter((r) => r.server === ctx.server);
  const reads = served.some((r) => r.writeConcern === undefined);
  const onMember = reads || (served.length > 0 && fieldInfo(c.field).unit === 'bytes');
  const members = tested && onMember && !ctx.serverRecord?.startedByKit ? membersMayDifferReason(ctx.serverRecord, served) : null;
  if (members) decided.reasons.push(members);
  const readConcern = tested && reads && !ctx.serverRecord?.startedByKit ? readConcernReason(ctx.serverRecord) : null;
  if (readConcern) decided.reasons.push(readConcern);
  const shared = tested && counted.some((r) => r.otherRuns?.length);
  if (shared) decided.reasons.push({ code: 'shared-machine' });
  if (tested && (out.duplicated || (ctx.misaligned?.size && counted.some((r) => ctx.misaligned.has(r))))) decided.reasons.push({ code: 'repeats-misaligned' });
  const articleClockEstimate = onArticleClock(finding, kind.estimateOn && ((field) => kind.estimateOn({ ...c, field, baselineField: field }, ctx, rule)));
  return {
    ...clockFields, thresholds: rule, detail: out.detail,
    ...concluded({ untestable, decided, est, evidence: checked.evidence, dropped: out.dropped, articleClockEstimate }),
    ...extras, mechanism: tested && !untestable.length ? mechanismOf(finding, own) : null, shared,
  };
}

/**
 * A finding that compares servers (the compressed engine against the uncompressed one): a ratio
 * whose servers are chosen by a field of their records, and it cannot be tested unless the run had
 * both. Their blocks pair by round where the conductor interleaved them; else one reading each.
 */
function judgeAcross(finding, ctx) {
  const { a, b } = finding.across;
  const serverOf = (sel) => ctx.records.find((r) => matches(r, { where: sel }))?.server;
  const sa = serverOf(a.select);
  const sb = serverOf(b.select);
  const c = checkOf(finding);
  const rule = ruleOf(c);
  const timed = fieldInfo(c.field).clock !== null;
  const clockFields = { field: c.field, clock: fieldInfo(c.field).clock, articleClock: finding.clock?.article ? fieldInfo(finding.clock.article).clock : null };
  const empty = { ...clockFields, n: 0, thresholds: rule, detail: {} };
  if (!sa || !sb) return { ...empty, status: UNTESTABLE, reasons: [{ code: 'needs-other-engine', hint: finding.across.hint }] };
  // one server's records as the numerator, the other's as the denominator: a check across servers
  const where = c.where || {};
  const relabel = (records, server, side) => records.filter((r) => r.server === server).map((r) => ({ ...r, server: 'across', acrossSide: side }));
  const pool = (records) => [...relabel(records, sa, 'a'), ...relabel(records, sb, 'b')];
  const sub = { ...ctx, server: 'across', records: pool(ctx.records), blocks: pool(ctx.blocks), raw: pool(ctx.raw) };
  const across = { ...c, num: { ...where, acrossSide: 'a' }, den: { ...where, acrossSide: 'b' } };
  const cmp = comparison(across, sub, across.num, across.den);
  const est = estimateOf(cmp);
  const decided = est.n ? decide(rule, est, { timed })
    : cmp.noPairs && cmp.num && cmp.den ? { status: INCONCLUSIVE, reasons: [{ code: 'no-pairs', ...cmp.noPairs }] }
      : { status: UNTESTABLE, reasons: [{ code: 'not-measured', where: 'on both' }] };
  // each side named by its server, not by the selection that set the two apart
  const serverOfLabel = new Map([[sideLabel(across.num), sa], [sideLabel(across.den), sb]]);
  const onServer = (label) => `${fieldInfo(c.field).words} on ${serverOfLabel.get(label) ?? label}`;
  const groups = (cmp.groups || []).map((g) => ({ ...g, label: onServer(g.label) }));
  const checked = checkEvidence(decided, { rule, est, groups, fields: [c.field], descriptor: ctx.descriptor, blocks: groups.flatMap((g) => g.records), estimateWithout: estimateWithout(est), estimateAgain: estimateAgain(est) });
  const why = [[sa, a], [sb, b]].flatMap(([server]) => unmet(finding.requires, ctx.records.filter((r) => r.server === server))
    .map((reason) => ({ ...reason, text: `on ${server}: ${reason.text}` })));
  // other servers of the run beside it, against the same reference (snappy beside zstd)
  const vb = cmp.den?.value;
  const also = (finding.across.also || []).map((o) => {
    const so = serverOf(o.select);
    const vo = so ? pick(ctx.records.filter((r) => r.server === so), where).find((r) => Number.isFinite(r[c.field]))?.[c.field] : undefined;
    return Number.isFinite(vo) && vb ? { label: o.label, server: so, ratio: vo / vb } : null;
  }).filter(Boolean);
  const articleClockEstimate = onArticleClock(finding, (field) => estimateOf(comparison({ ...across, field }, sub, across.num, across.den, { field })));
  const relabelDropped = (d) => ({ ...d, side: d.side ? onServer(d.side) : null });
  return {
    ...empty, servers: [sa, sb],
    detail: { sides: { num: cmp.num && { ...sideFigure(cmp.num, {}), label: sa }, den: cmp.den && { ...sideFigure(cmp.den, {}), label: sb } }, also },
    ...concluded({ untestable: why, decided: checked.decided, est, evidence: checked.evidence, dropped: [...(cmp.dropped || []), ...est.dropped].map(relabelDropped), articleClockEstimate }),
  };
}

/**
 * The verdict of one finding on one server. ctx: { scenario, server, records (the scenario's
 * aggregated measurement records, every server's: a baseline's too), blocks (its block records,
 * warm-up and incomplete ones among them: the comparison leaves them out, said), raw (its
 * measurement records before aggregation, for repeats), descriptor, sizes, sizeRecord (the run's
 * size record of the scenario on the server: what a larger budget would reach) }. A finding
 * across servers, or only published, is judged once for the run (its scope), whatever ctx.server.
 */
function judge(finding, ctx) {
  const j = judgement(finding, ctx);
  const kind = kindOf(finding.check.kind);
  const scope = !kind.decides ? 'article' : finding.across ? 'all-servers' : 'server';
  const atRunSize = kind.articleAtRunSize?.(finding, j.detail.at);
  return makeVerdict({
    identity: { scenario: ctx.scenario, finding: finding.id, scope, server: scope === 'server' ? ctx.server : null, servers: j.servers ?? null, kit: finding.source === 'kit' },
    status: j.status,
    estimate: {
      ratio: j.ratio, lo: j.lo, hi: j.hi, n: j.n, se: j.se, df: j.df, method: j.method, pairs: j.pairs, runs: j.runs, field: j.field, clock: j.clock, onArticleClock: j.articleClockEstimate,
    },
    // the article's own figure (published.json's figure, never read out of its words); the kit's
    // own questions cite another comparison's figure (TokuMX): said, not drawn
    article: { ratio: finding.source === 'kit' ? null : finding.figure, clock: j.articleClock, field: finding.clock?.article },
    thresholds: j.thresholds,
    reasons: j.reasons,
    evidence: {
      dropped: j.dropped, outliers: j.outliers, drift: j.drift, contention: j.contention, floors: j.floors, context: j.context, mechanism: j.mechanism, shared: j.shared, measuredInstead: j.measuredInstead,
    },
    detail: { kind: kind.kind, ...j.detail, ...(atRunSize ? { articleAtRunSize: atRunSize } : {}) },
    // whether the two sides did the same work (acknowledged, durable, indexed, warm): said, not judged
    conditions: kind.decides ? conditionsOf(finding.check, ctx, { across: j.servers }) : null,
  });
}

module.exports = { judge, checkOf, unmet, mechanismOf, ruleReasons, CHECK_KINDS };
