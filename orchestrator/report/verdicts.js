'use strict';
// Each article's headline findings, stored as data beside its published table, checked on a
// run's measurements: holds, does not hold, inconclusive (inside the finding's margin), or cannot
// be tested here (the server lacks the feature, or the size is too small to tell). A verdict
// names the margin that decides it and puts the measured figure beside the published one.
// A finding with source "kit" is a question the kit asks of today's servers, not the article's
// claim; one whose check is publishedOnly compares what no server today can run (TokuMX) and is
// shown as the article printed it, with why.
const { matches } = require('../results/records');
const { aggregateRepeats } = require('../results/repeats');
const { spanMsOf, minSpanMs, MIN_SPAN_MS } = require('../sizing/planner');
const { markdownText } = require('./format');

const HOLDS = 'holds';
const FAILS = 'does not hold';
const INCONCLUSIVE = 'inconclusive';
const UNTESTABLE = 'cannot be tested here';
const PUBLISHED_ONLY = 'published only';

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const times = (x) => `${x.toFixed(2)}×`;

function pick(records, where) {
  return records.filter((r) => matches(r, { where }));
}

/** min and max of a field over the records matching where (from repeats' spreads), or null. */
function rangeOf(records, where, field, sum = false) {
  const found = pick(records, where).filter((x) => Number.isFinite(x[field]));
  if (!found.length || !found.every((x) => x.spread?.[field])) return null;
  const used = sum ? found : found.slice(0, 1);
  return { min: used.reduce((n, x) => n + x.spread[field].min, 0), max: used.reduce((n, x) => n + x.spread[field].max, 0) };
}

/** The field of the first record matching where, or with sum the total over all of them. */
function valueOf(records, where, field, sum = false) {
  const found = pick(records, where).filter((x) => Number.isFinite(x[field]));
  if (!found.length) return null;
  return sum ? found.reduce((n, x) => n + x[field], 0) : found[0][field];
}

/**
 * What a field holds, in a reader's words: the clocks by what they time (the send time stops when
 * the last write is sent, the applied time when the server has applied them all), other fields by
 * name. A verdict's text names no field of the records.
 */
function fieldWords(field) {
  if (/^applied/.test(field)) return 'applied time';
  if (/^durable/.test(field)) return 'time to durability';
  if (/^(seconds|ms|hrMs)$/.test(field)) return 'send time';
  if (/^mean\w*Us$/.test(field)) return 'mean latency';
  if (field === 'storagePlusIndexBytes') return 'data on disk + indexes';
  return field;
}

/** The unit a field's figures are in, after the figure (" s", " ms", " µs", " bytes"), or nothing. */
function unitOf(field) {
  if (/(^seconds|Seconds)$/.test(field)) return ' s';
  if (/(^ms|Ms)$/.test(field)) return ' ms';
  if (/Us$/.test(field)) return ' µs';
  if (/Bytes$/.test(field)) return ' bytes';
  return '';
}

/**
 * The check a finding is decided by. A finding that names its clock (clock: decides, the field
 * its claim is about; article, the article's own clock) is decided on the clock it decides by,
 * whatever its check says; a baseline (the article's other side, each of its writes waited for)
 * that recorded no time on that clock has applied every write when its own clock stops, so that
 * clock stands for it (baselineField).
 */
function checkOf(finding) {
  const { clock, check } = finding;
  return clock ? { ...check, field: clock.decides, baselineField: clock.article } : check;
}

/** The field a side's records are timed on: the check's, or for a baseline that lacks it, its own clock. */
function sideField(check, records, where, baseline) {
  if (!baseline || !check.baselineField || pick(records, where).some((r) => Number.isFinite(r[check.field]))) return check.field;
  return check.baselineField;
}

/**
 * The article's clock beside a verdict decided on another: the same check on the article's
 * clock, shown whatever it would say (nothing where that clock was not recorded).
 */
function articleClockBeside(finding, decide) {
  const { clock } = finding;
  if (!clock || clock.article === clock.decides) return '';
  const other = decide({ ...finding.check, field: clock.article });
  return other.status === UNTESTABLE ? '' : `; beside it, the article's clock: ${other.measured}`;
}

function getPath(record, dotted) {
  return dotted.split('.').reduce((v, k) => (v == null ? v : v[k]), record);
}

/**
 * A finding's precondition: a field some record must carry with a value (equals), or reach
 * (atLeast: the size must be large enough to tell; `of` names the threshold, the article's by
 * default), else the finding is untestable here. A list must all be met. `because` names a field
 * of the records that missed, quoted after the value (why the script did not apply something);
 * `where` looks only at the records it selects (the run and query a finding is decided on);
 * `label` says in words what the field is, `unrecorded` what it means that no record has it. A
 * threshold holds for every server among the records and every record of each (the reads a
 * verdict rests on must each have missed the cache: one server's misses say nothing of another's).
 */
function unmet(requires, all) {
  if (!requires) return null;
  if (Array.isArray(requires)) return requires.map((r) => unmet(r, all)).filter(Boolean).join('; ') || null;
  const records = requires.where ? pick(all, requires.where) : all;
  const carrying = records.filter((r) => getPath(r, requires.field) !== undefined && getPath(r, requires.field) !== null);
  const values = carrying.map((r) => getPath(r, requires.field));
  const label = requires.label || requires.field;
  if (!values.length) return `${requires.unrecorded || requires.else} (no ${label} recorded)`;
  if (requires.atLeast !== undefined) {
    const servers = [...new Set(carrying.map((r) => r.server))];
    const short = servers.map((server) => ({ server, least: Math.min(...carrying.filter((r) => r.server === server).map((r) => getPath(r, requires.field))) }))
      .filter((s) => !(s.least >= requires.atLeast));
    if (!short.length) return null;
    const shown = short.map((s) => `${s.least}${servers.length > 1 ? ` on ${s.server}` : ''}`).join(', ');
    return `${requires.else} (${label} ${shown}, ${requires.of || 'the article\'s'} ${requires.atLeast})`;
  }
  if (values.some((v) => v === requires.equals)) return null;
  const why = requires.because ? [...new Set(carrying.map((r) => getPath(r, requires.because)).filter(Boolean))] : [];
  return `${requires.else} (${label}: ${[...new Set(values)].join(', ')}${why.length ? `: ${why.join('; ')}` : ''})`;
}

/**
 * a and b over x: a starts above b by more than the margin and ends below it by more than the
 * margin. Relative gaps inside the margin at either end are too close to call.
 */
function crossing(check, records) {
  const series = (name) => pick(records, { ...check.where, [check.series]: name })
    .filter((r) => Number.isFinite(r[check.y]) && Number.isFinite(r[check.x]))
    .sort((p, q) => p[check.x] - q[check.x]);
  const a = series(check.a);
  const b = series(check.b);
  const xs = a.map((r) => r[check.x]).filter((x) => b.some((r) => r[check.x] === x));
  if (xs.length < (check.minPoints || 2)) return { status: UNTESTABLE, measured: `${xs.length} point(s) of both series: too few to tell` };
  const gap = (x) => {
    const av = a.find((r) => r[check.x] === x)[check.y];
    const bv = b.find((r) => r[check.x] === x)[check.y];
    return (av - bv) / bv;
  };
  const first = gap(xs[0]);
  const last = gap(xs.at(-1));
  // a crossing is a's fall from above b by more than the margin: two like series wobbling
  // around each other (sizes within 0.1%) cross at every other point, which says nothing
  const crossAt = xs.find((x, i) => i > 0 && gap(xs[i - 1]) > 0 && gap(x) <= 0 && xs.slice(0, i).some((p) => gap(p) > check.margin));
  const measured = `${check.a} ${first >= 0 ? 'larger' : 'smaller'} by ${pct(Math.abs(first))} at ${check.x} ${xs[0]}, ${last >= 0 ? 'larger' : 'smaller'} by ${pct(Math.abs(last))} at ${check.x} ${xs.at(-1)}${crossAt !== undefined ? `; crosses at ${check.x} ${crossAt}` : ''}`;
  if (Math.abs(first) <= check.margin || Math.abs(last) <= check.margin) return { status: INCONCLUSIVE, measured };
  return { status: first > 0 && last < 0 ? HOLDS : FAILS, measured };
}

/**
 * num/den against a threshold: holds at or past atLeast (or at or under atMost); does not hold
 * where the effect is absent or reversed (within margin of 1, or the other way); in between,
 * inconclusive.
 */
function ratioStatus(r, check) {
  if (check.atMost !== undefined) {
    if (r <= check.atMost) return HOLDS;
    return r >= (check.failAtLeast ?? 1 - check.margin) ? FAILS : INCONCLUSIVE;
  }
  if (r >= check.atLeast) return HOLDS;
  return r <= (check.failAtMost ?? 1 + check.margin) ? FAILS : INCONCLUSIVE;
}

/**
 * With repeats (range: the lowest and highest ratio their spreads allow), a verdict that the
 * range does not settle is inconclusive: the runs overlap the margin.
 */
function ratioOf(num, den, check, label, range = null) {
  const r = num / den;
  let measured = `${times(r)} (${label})`;
  const status = ratioStatus(r, check);
  if (range) {
    measured += `; over the repeats ${times(range.lo)} to ${times(range.hi)}`;
    if (ratioStatus(range.lo, check) !== status || ratioStatus(range.hi, check) !== status) {
      return { status: INCONCLUSIVE, measured: `${measured}: the repeats overlap the margin` };
    }
  }
  return { status, measured };
}

/**
 * The records of num and den whose pairBy fields have a measured value on both sides, so a sum
 * compares the same cells (a cell refused on one side drops out of both).
 */
function paired(records, check) {
  const keyOf = (r) => JSON.stringify(check.pairBy.map((f) => r[f]));
  const keys = (where) => new Set(pick(records, where).filter((r) => Number.isFinite(r[check.field])).map(keyOf));
  const a = keys(check.num);
  const b = keys(check.den);
  return records.filter((r) => !(matches(r, { where: check.num }) || matches(r, { where: check.den })) || (a.has(keyOf(r)) && b.has(keyOf(r))));
}

/**
 * A ratio of one measured value to another on one server; a side with fromServer takes its value
 * from that server's records instead (the SQL baseline against each MongoDB server).
 */
function ratio(check, records, all = records) {
  if (check.pairBy) records = paired(records, check);
  const from = (fromServer) => (fromServer ? all.filter((r) => r.server === fromServer) : records);
  const side = (sel) => {
    const { fromServer, ...where } = sel;
    return valueOf(from(fromServer), where, sideField(check, from(fromServer), where, Boolean(fromServer)), check.sum);
  };
  const num = side(check.num);
  const den = side(check.den);
  if (num === null || den === null || den === 0) return { status: UNTESTABLE, measured: notRunWhy(check, all) || 'not measured' };
  const sideRange = (sel) => {
    const { fromServer, ...where } = sel;
    return rangeOf(from(fromServer), where, sideField(check, from(fromServer), where, Boolean(fromServer)), check.sum);
  };
  const rn = sideRange(check.num);
  const rd = sideRange(check.den);
  const range = rn || rd ? { lo: (rn?.min ?? num) / (rd?.max ?? den), hi: (rn?.max ?? num) / (rd?.min ?? den) } : null;
  return ratioOf(num, den, check, `${fieldWords(check.field)}${check.sum ? ' summed' : ''} ${num.toLocaleString('en-US')} / ${den.toLocaleString('en-US')}${unitOf(check.field)}`, range);
}

/** Why a side's reference server (a scenario's baseline) measured nothing, as the run recorded it. */
function notRunWhy(check, all) {
  return [check.num, check.den].map((s) => s.fromServer && all.find((r) => r.server === s.fromServer && r.unavailable))
    .filter(Boolean).map((r) => `${r.server} did not run: ${r.unavailable}`).join('; ');
}

/**
 * How a value at the largest x of a series compares with the series' fastest, and, optionally, how flat a
 * second series stays. Untestable where the run did not reach the x where the article saw it.
 */
function growth(check, records) {
  const series = (where) => pick(records, where).filter((r) => Number.isFinite(r[check.field]) && Number.isFinite(r[check.x]))
    .sort((p, q) => p[check.x] - q[check.x]);
  const grow = series(check.grows);
  if (grow.length < 2) return { status: UNTESTABLE, measured: 'not measured' };
  const maxX = grow.at(-1)[check.x];
  const fastest = grow.reduce((m, r) => (r[check.field] < m[check.field] ? r : m));
  const g = grow.at(-1)[check.field] / fastest[check.field];
  let measured = `${times(g)} (${fieldWords(check.field)}) at ${maxX} ${check.x} against the fastest (${fastest[check.x]} ${check.x})`;
  let flatOk = true;
  if (check.flat) {
    const flat = series(check.flat.where);
    if (flat.length >= 2) {
      const values = flat.map((r) => r[check.field]);
      const spread = Math.max(...values) / Math.min(...values);
      measured += `; the other stays within ${times(spread)}`;
      flatOk = spread <= check.flat.atMost;
    }
  }
  if (g >= check.atLeast && flatOk) return { status: HOLDS, measured };
  if (g <= 1 + check.margin) return { status: FAILS, measured };
  return { status: INCONCLUSIVE, measured };
}

/**
 * The timed figures a check decides from, each as { label, ms, minMs }: a figure of a few
 * milliseconds is mostly the clock's resolution, a shell's start skew or the machine's jitter,
 * so a verdict may not rest on one shorter than its step's shortest span (the scenario's
 * scaling.spans, else MIN_SPAN_MS; a baseline's, MIN_SPAN_MS). Sizes, counts and means per
 * operation are no spans.
 */
function figuresOf(check, records, all, descriptor) {
  const figures = [];
  // a step's own minimum is about how its shells time it; a baseline's figures (fromServer, timed
  // in the kit's own process) are held to the default
  const add = (label, sel, from, baseline) => {
    const field = sideField(check, from, sel, baseline);
    const found = pick(from, sel).filter((r) => Number.isFinite(r[field]));
    if (!found.length) return;
    const used = check.sum ? found : found.slice(0, 1);
    const ms = spanMsOf(field, used.reduce((n, r) => n + r[field], 0));
    if (ms === null) return;
    figures.push({ label, ms, minMs: baseline ? MIN_SPAN_MS : Math.max(...used.map((r) => minSpanMs(descriptor, r.step))) });
  };
  const describe = (where) => Object.values(where).join(' ');
  if (check.kind === 'ratio' || check.kind === 'near') {
    const from = check.pairBy ? paired(records, check) : records;
    const points = check.at ? check.at.map((x) => [{ ...check.num, [check.x]: x }, { ...check.den, [check.x]: x }]) : [[check.num, check.den]];
    for (const [num, den] of points) {
      for (const sel of [num, den]) {
        const { fromServer, ...where } = sel;
        add(describe(sel), where, fromServer ? all.filter((r) => r.server === fromServer) : from, Boolean(fromServer));
      }
    }
  } else if (check.kind === 'growth') {
    for (const where of [check.grows, check.flat?.where].filter(Boolean)) {
      for (const r of pick(records, where)) {
        const ms = spanMsOf(check.field, r[check.field]);
        if (ms !== null) figures.push({ label: `${describe(where)} at ${r[check.x]} ${check.x}`, ms, minMs: minSpanMs(descriptor, r.step) });
      }
    }
  }
  return figures;
}

/** A verdict made inconclusive where a figure it rests on spans too little time to tell. */
function tooShort(result, figures) {
  if (![HOLDS, FAILS].includes(result.status)) return result;
  const short = figures.filter((f) => f.ms < f.minMs);
  if (!short.length) return result;
  const shown = short.slice(0, 3).map((f) => `${f.label} ${f.ms.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`).join(', ');
  return {
    status: INCONCLUSIVE,
    measured: `${result.measured}: the span was too short to decide (${shown}${short.length > 3 ? ` and ${short.length - 3} more` : ''}, under the ${short[0].minMs.toLocaleString('en-US')} ms a verdict needs; a larger size or --budget lengthens it)`,
  };
}

/**
 * The size a finding needs (scaling.findings in the scenario's descriptor) against the size
 * this server ran: a reason it is too small, or null.
 */
function sizeTooSmall(finding, descriptor, sizes) {
  const need = descriptor?.scaling?.findings?.[finding.id];
  if (!need || !sizes) return null;
  const short = Object.entries(need.atLeast).filter(([k, v]) => Number.isFinite(sizes[k]) && sizes[k] < v);
  if (!short.length) return null;
  return `the size is too small: ${short.map(([k, v]) => `${k} ${sizes[k].toLocaleString('en-US')}, it needs ${v.toLocaleString('en-US')}`).join('; ')} (${need.why})`;
}

/**
 * Two values about equal: holds within tolerance of each other, does not hold past twice it. With
 * x and at, num and den are compared at each of those x and the farthest apart decides.
 */
function near(check, records) {
  const points = check.at ? check.at.map((x) => ({ x, num: { ...check.num, [check.x]: x }, den: { ...check.den, [check.x]: x } })) : [{ num: check.num, den: check.den }];
  const statusOf = (r) => {
    const off = Math.abs(r - 1);
    if (off <= check.tolerance) return HOLDS;
    return off > 2 * check.tolerance ? FAILS : INCONCLUSIVE;
  };
  const seen = [];
  for (const p of points) {
    const num = valueOf(records, p.num, check.field, check.sum);
    const den = valueOf(records, p.den, check.field, check.sum);
    if (num === null || den === null || den === 0) {
      const where = p.x === undefined ? '' : ` at ${p.x} ${check.x}`;
      return { status: UNTESTABLE, measured: `not measured${where}${seen.length ? `; ${seen.map((s) => s.text).join(', ')}` : ''}` };
    }
    const r = num / den;
    // with repeats, the lowest and highest ratio their spreads allow
    const rn = rangeOf(records, p.num, check.field, check.sum);
    const rd = rangeOf(records, p.den, check.field, check.sum);
    const range = rn || rd ? { lo: (rn?.min ?? num) / (rd?.max ?? den), hi: (rn?.max ?? num) / (rd?.min ?? den) } : null;
    const spread = range ? `; over the repeats ${times(range.lo)} to ${times(range.hi)}` : '';
    seen.push({ r, range, text: `${times(r)}${p.x === undefined ? '' : ` at ${p.x} ${check.x}`} (${fieldWords(check.field)}${check.sum ? ' summed' : ''} ${num.toLocaleString('en-US')} / ${den.toLocaleString('en-US')}${unitOf(check.field)}${spread})` });
  }
  const worst = seen.reduce((a, b) => (Math.abs(b.r - 1) > Math.abs(a.r - 1) ? b : a));
  const measured = seen.map((s) => s.text).join(', ');
  const status = statusOf(worst.r);
  if (seen.some((s) => s.range && (statusOf(s.range.lo) !== statusOf(s.r) || statusOf(s.range.hi) !== statusOf(s.r)))) {
    return { status: INCONCLUSIVE, measured: `${measured}: the repeats overlap the margin` };
  }
  return { status, measured };
}

/** A finding about something no server today runs: shown as the article published it, with why. */
function publishedOnly(check) {
  return { status: PUBLISHED_ONLY, measured: check.reason };
}

const CHECKS = { crossing, ratio, growth, near, publishedOnly };

/**
 * What the server did that a reader needs beside the figure (the write concern it took, how it
 * found a document): each context field's distinct values on the records that carry it.
 */
function contextOf(finding, records) {
  const parts = [];
  for (const c of finding.context || []) {
    const values = [...new Set(pick(records, c.where || {}).map((r) => getPath(r, c.field)).filter((v) => v !== undefined && v !== null)
      .map((v) => (typeof v === 'object' ? [v.outcome, v.reason].filter(Boolean).join(': ') : String(v))))];
    if (values.length) parts.push(`${c.label}: ${values.join('; ')}`);
  }
  return parts.join('; ');
}

/**
 * One finding on one server's records (all: the scenario's records on every server), with the
 * scenario's descriptor and the sizes that server ran at where they are known.
 */
function judge(finding, records, all = records, { descriptor = null, sizes = null } = {}) {
  if (finding.check.kind === 'publishedOnly') return publishedOnly(finding.check);
  const why = unmet(finding.requires, records) || sizeTooSmall(finding, descriptor, sizes);
  const run = CHECKS[finding.check.kind];
  if (!run) throw new Error(`finding ${finding.id}: no check of kind ${finding.check.kind}`);
  const check = checkOf(finding);
  const decided = tooShort(run(check, records, all), figuresOf(check, records, all, descriptor));
  const result = { ...decided, measured: `${decided.measured}${articleClockBeside(finding, (other) => run(other, records, all))}` };
  const context = contextOf(finding, records);
  const measured = context ? `${result.measured} [${context}]` : result.measured;
  if (why) return { status: UNTESTABLE, measured: `${why}; measured instead: ${measured}` };
  return { ...result, measured };
}

/**
 * Every finding of one scenario, per server that measured it, on the scenario's records with
 * repeats already aggregated (one record per cell): [{ scenario, finding, server, status, measured }].
 */
function verdictsForScenario(scenario, measured, sizesOf = () => null) {
  const out = [];
  const findings = scenario.loadPublished().findings || [];
  const servers = [...new Set(measured.map((m) => m.server))];
  for (const finding of findings) {
    if (finding.check.kind === 'publishedOnly') {
      out.push({ scenario: scenario.name, finding, server: 'the article\'s', ...judge(finding, []) });
      continue;
    }
    if (finding.across) {
      out.push({ scenario: scenario.name, finding, server: 'all servers', ...judgeAcross(finding, measured, scenario) });
      continue;
    }
    // a scenario's SQL baseline is what MongoDB servers are held against, not a server judged
    const referenceServers = [scenario.baseline?.server, finding.check?.num?.fromServer, finding.check?.den?.fromServer].filter(Boolean);
    for (const server of servers.filter((s) => !referenceServers.includes(s))) {
      const own = measured.filter((m) => m.server === server);
      out.push({ scenario: scenario.name, finding, server, ...judge(finding, own, baselineFor(server, measured), { descriptor: scenario, sizes: sizesOf(server) }) });
    }
  }
  return out;
}

/**
 * The records a server's verdicts may take a baseline from: a baseline run once per size
 * (--size-per-server) marks whose size it ran at (forServers), and each server is held against
 * its own.
 */
function baselineFor(server, measured) {
  return measured.filter((m) => !m.forServers || m.forServers.includes(server));
}

/** Every finding of every scenario in a run, from its raw measurements (sizesOf(scenario, server): the sizes it ran at). */
function verdictsFor(scenarios, measurements, sizesOf = () => null) {
  return scenarios.flatMap((scenario) => {
    const findings = scenario.loadPublished().findings || [];
    return verdictsForScenario(scenario, aggregateRepeats(measurements.filter((m) => m.scenario === scenario.name), scenario, findings), (server) => sizesOf(scenario.name, server));
  });
}

/**
 * A finding that compares servers (the compressed engine against the default one): the servers
 * are chosen by a field of their records, and untestable unless the run had both.
 */
function judgeAcross(finding, records, descriptor = null) {
  const { a, b } = finding.across;
  const serverOf = (sel) => records.find((r) => matches(r, { where: sel }))?.server;
  const sa = serverOf(a.select);
  const sb = serverOf(b.select);
  if (!sa || !sb) return { status: UNTESTABLE, measured: `needs ${finding.across.hint}` };
  const num = records.filter((r) => r.server === sa);
  const den = records.filter((r) => r.server === sb);
  // a precondition holds on both servers (the reads missed the cache on each)
  const why = [[sa, num], [sb, den]].map(([s, rs]) => { const w = unmet(finding.requires, rs); return w && `on ${s}: ${w}`; }).filter(Boolean).join('; ');
  const check = checkOf(finding);
  const where = check.where || {};
  const compare = (c) => {
    const va = valueOf(num, where, c.field);
    const vb = valueOf(den, where, c.field);
    if (va === null || vb === null) return { status: UNTESTABLE, measured: 'not measured on both' };
    return ratioOf(va, vb, c, `${fieldWords(c.field)} on ${sa} / on ${sb}`);
  };
  const vb = valueOf(den, where, check.field);
  const decided = compare(check);
  if (decided.status === UNTESTABLE) return decided;
  const spanOf = (set, server) => set.filter((r) => matches(r, { where }) && Number.isFinite(r[check.field])).slice(0, 1)
    .map((r) => ({ label: `${fieldWords(check.field)} on ${server}`, ms: spanMsOf(check.field, r[check.field]), minMs: minSpanMs(descriptor, r.step) }))
    .filter((f) => f.ms !== null);
  const timed = tooShort(decided, [...spanOf(num, sa), ...spanOf(den, sb)]);
  const result = { ...timed, measured: `${timed.measured}${articleClockBeside(finding, compare)}` };
  // other servers of the run shown beside, against the same reference (snappy beside zstd)
  const beside = (finding.across.also || []).map((o) => {
    const so = serverOf(o.select);
    const vo = so ? valueOf(records.filter((r) => r.server === so), where, check.field) : null;
    return vo === null ? null : `${o.label} (${so}): ${times(vo / vb)}`;
  }).filter(Boolean);
  const shown = beside.length ? { ...result, measured: `${result.measured}; beside it ${beside.join(', ')}` } : result;
  return why ? { status: UNTESTABLE, measured: `${why}; measured instead: ${shown.measured}` } : shown;
}


/** The verdicts as a markdown table, with how each is decided. */
function verdictsMarkdown(verdicts) {
  if (!verdicts.length) return '';
  const claim = (f) => (f.source === 'kit' ? `*the kit's question, not the article's:* ${f.claim}` : f.claim);
  const rows = verdicts.map((v) => `| ${v.scenario} | ${claim(v.finding)} | ${markdownText(v.server)} | **${v.status}** | ${markdownText(v.measured)} | ${markdownText(v.finding.published)} |`);
  const rules = [...new Map(verdicts.map((v) => [v.finding.id, `- ${v.scenario} · ${v.finding.claim}: ${v.finding.decidedBy}`])).values()];
  return [
    '## Verdicts',
    'Each article\'s headline findings, checked on this run. *Inconclusive* means the measurement fell inside the margin that decides the finding; *cannot be tested here* says why, and what was measured instead; *published only* is a finding the article made about something no server today can run. Rows marked as the kit\'s question are not the article\'s claims.',
    ['| scenario | finding | server | verdict | measured | article |', '|---|---|---|---|---|---|', ...rows].join('\n'),
    `How each is decided:\n${rules.join('\n')}`,
  ].join('\n\n');
}

module.exports = { verdictsFor, verdictsForScenario, verdictsMarkdown, judge, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY, CHECK_KINDS: Object.keys(CHECKS) };
