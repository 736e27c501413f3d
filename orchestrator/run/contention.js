'use strict';
// How busy the machine was while the run timed a block: the share of the machine's CPU time that
// went to processes outside the run's own process tree (the kit, its shells, its servers, the SQL
// baseline's PostgreSQL and its backends), steal included, read from /proc/stat and from
// /proc/<pid>/stat of every process in the tree. MongoDB's performance CI records the machine's
// state beside every result for the same reason: a ratio taken beside a busy core moves further
// than its interval says.
//
// The cost stays outside the timed path: a sampler in the kit's own process reads /proc/stat and
// makes one pass over /proc every SAMPLE_MS (about a millisecond of one core each, on a machine
// of a hundred processes), and takes one more sample when a block's line arrives; no script does
// anything for it. A block's figures are interpolated between the samples around its start and
// its end. Linux only: elsewhere the meter measures nothing and every figure is null ("not
// measured", never "quiet").
const fs = require('node:fs');
const { treeCpuTicks } = require('../process-table');

/** How often the sampler reads the counters. */
const SAMPLE_MS = 250;
/**
 * The shortest span a figure covers: the kernel counts CPU time in ticks of 10 ms (USER_HZ 100),
 * so a shorter block's share would be a few ticks' rounding; its figures then cover the last
 * MIN_WINDOW_MS up to its end, and sampledMs says so.
 */
const MIN_WINDOW_MS = 100;
/** Past this many samples, the older half is thinned to every other one (a run of many hours). */
const MAX_SAMPLES = 20000;

/**
 * A block's clock time on the wall clock: { from, to } in epoch ms. Its own startedAt and the
 * last of its endedAt and appliedAt where its line gives them (a parallel step's combined line:
 * its shells' spans); otherwise the span of its longest clock, ending when its line reached the
 * kit (arrivedAt), which the script prints the moment the block ends.
 */
const SPAN_FIELDS = [['durableMs', 1], ['appliedHrMs', 1], ['appliedMs', 1], ['appliedSeconds', 1000], ['hrMs', 1], ['ms', 1], ['seconds', 1000]];
function blockWindow(line, arrivedAt = null) {
  if (Number.isFinite(line.startedAt)) {
    const ends = [line.endedAt, line.appliedAt].filter(Number.isFinite);
    return { from: line.startedAt, to: ends.length ? Math.max(...ends) : arrivedAt ?? line.startedAt };
  }
  if (Array.isArray(line.workerSpans) && line.workerSpans.length) {
    const from = Math.min(...line.workerSpans.map(([s]) => s));
    return { from, to: from + Math.max(0, ...[line.ms, line.appliedMs].filter(Number.isFinite)) };
  }
  if (!Number.isFinite(arrivedAt)) return null;
  const [field, scale] = SPAN_FIELDS.find(([f]) => Number.isFinite(line[f])) ?? [null, 0];
  return { from: arrivedAt - (field ? line[field] * scale : 0), to: arrivedAt };
}

/** The machine's counters from /proc/stat's first line, in ticks: { total, idle, steal, cpus }, or null. */
function readMachine() {
  let text;
  try { text = fs.readFileSync('/proc/stat', 'utf8'); } catch { return null; }
  const lines = text.split('\n');
  const cpu = lines[0].trim().split(/\s+/);
  if (cpu[0] !== 'cpu') return null;
  // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user and nice)
  const v = cpu.slice(1, 9).map((x) => Number(x) || 0);
  return { total: v.reduce((a, b) => a + b, 0), idle: v[3] + v[4], steal: v[7], cpus: lines.filter((l) => /^cpu\d+\s/.test(l)).length };
}

/** One sample, at epoch ms `at`: the machine's counters and the tree's CPU time; null where either cannot be read. */
function takeSample(pid) {
  const machine = readMachine();
  const own = machine ? treeCpuTicks(pid) : null;
  return own === null ? null : { at: Date.now(), ...machine, own };
}

/** Counters at t, interpolated between the samples around it (the nearest at either end). */
function valueAt(samples, t) {
  let hi = samples.findIndex((s) => s.at >= t);
  if (hi === -1) return samples.at(-1);
  if (hi === 0) return samples[0];
  const [a, b] = [samples[hi - 1], samples[hi]];
  const k = b.at === a.at ? 1 : (t - a.at) / (b.at - a.at);
  const mix = (f) => a[f] + k * (b[f] - a[f]);
  return { at: t, total: mix('total'), idle: mix('idle'), steal: mix('steal'), own: mix('own'), cpus: b.cpus };
}

/** The figures between two counters' readings: { otherShare, stealShare, cpus, sampledMs }, or null for no tick between them. */
function shareBetween(a, b) {
  const total = b.total - a.total;
  if (!(total > 0)) return null;
  const busy = total - (b.idle - a.idle);
  // others and steal: the busy time that was not the tree's (read a moment apart, so kept within
  // 0..1); a stolen tick is never the tree's, so the others' share is at least the steal's, however
  // the tree's counter and the machine's fell apart
  const steal = Math.min(total, Math.max(0, b.steal - a.steal));
  const other = Math.min(total, Math.max(steal, busy - (b.own - a.own)));
  const round3 = (x) => Math.round(x * 1000) / 1000;
  return {
    otherShare: round3(other / total), stealShare: round3(steal / total), cpus: b.cpus, sampledMs: Math.round(b.at - a.at),
  };
}

/**
 * The sampler of one run: start() before the run's first step, over(from, to) for a block's or a
 * step's span (epoch ms), stop() at its end. Where /proc cannot be read, over() is always null.
 */
class ContentionMeter {
  constructor({ pid = process.pid, sampleMs = SAMPLE_MS } = {}) {
    Object.assign(this, { pid, sampleMs });
    this.samples = [];
    this.timer = null;
    this.supported = takeSample(pid) !== null;
  }

  start() {
    if (!this.supported || this.timer) return this;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.sampleMs);
    this.timer.unref();
    return this;
  }

  sample() {
    const s = takeSample(this.pid);
    if (!s) return null;
    this.samples.push(s);
    if (this.samples.length > MAX_SAMPLES) {
      const half = Math.floor(this.samples.length / 2);
      this.samples = [...this.samples.slice(0, half).filter((_, i) => i % 2 === 0), ...this.samples.slice(half)];
    }
    return s;
  }

  /** The machine's contention over [from, to] (epoch ms; to at most now): { otherShare, stealShare, cpus, sampledMs } or null. */
  over(from, to) {
    if (!this.supported || !this.samples.length || !Number.isFinite(from) || !Number.isFinite(to)) return null;
    // a span that ends after the last sample: one more, now (the block has just ended)
    if (to > this.samples.at(-1).at) this.sample();
    const last = this.samples.at(-1).at;
    const end = Math.min(to, last);
    const start = Math.max(this.samples[0].at, Math.min(from, end - MIN_WINDOW_MS));
    if (!(end > start)) return null;
    return shareBetween(valueAt(this.samples, start), valueAt(this.samples, end));
  }

  /** A block line's contention, from its span (blockWindow): its record's `contention`, or null. */
  ofBlock(line, arrivedAt = null) {
    const w = blockWindow(line, arrivedAt);
    return w ? this.over(w.from, w.to) : null;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

module.exports = { ContentionMeter, blockWindow, shareBetween, valueAt, readMachine, SAMPLE_MS, MIN_WINDOW_MS };
