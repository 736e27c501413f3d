'use strict';
// Two servers running one scenario's steps at once, their blocks taking turns (trade-candles'
// zstd questions: mongod:zstd against mongod:none). Timed one server after the other, a drift of
// the machine (another process, a cache warming, a checkpoint) lands on one of them; run at once
// in one drawn order of blocks, each pair of blocks sees the same machine, minutes apart at most,
// as the conductor interleaves the SQL baseline (run/conductor.js).
//
// A scenario declares which servers of a run pair (pairedServers: two specs that differ in one
// field only, the compressor) and which companions a default server that turns out to be a mongod
// brings along (companions). Each step starts on both servers together and ends on both before
// either goes on; each script is told PARTNER (the other server's name), SERVER_NAME and one SEED,
// so both draw the same order of the round's blocks (the paired servers block of the scripts).
// The kit's part, while both run:
// - a block line (an integer round) a server prints marks `<round>:<server>#<n>` (its n-th block
//   of the round) done in the other server's turns collection, where the other's script waits
//   for the partner's block before its own (partnerTurn);
// - a turn line for a meeting (`#meet`) is answered once both scripts have asked for it: they
//   meet after setting up and before summing up, so neither's untimed work runs during the
//   other's timed blocks;
// - once one server's shells are gone (its step over, failed or dead), every wait the other
//   announced, or announces later, is answered at once with ok false: no script waits for a
//   block that will never come.
const crypto = require('node:crypto');
const { parseServerSpec } = require('../servers/spec');
const { errorLine, bounded } = require('./settle');

/** How long one side of a step waits for the other's marks to be written before it lets go. */
const SETTLE_MS = 10000;

/** The spec fields that name a server rather than say what it is. */
const NAMING = new Set(['name', 'spec']);

/** What a spec is apart from the field a pair differs in: two specs alike here differ only there. */
function specWithout(spec, field) {
  return JSON.stringify(Object.entries(spec).filter(([k]) => !NAMING.has(k) && k !== field).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The pairs a scenario's pairedServers makes among servers (objects with a parsed `spec`, in the
 * run's order): [[first, second], ...], first the one whose spec has values[0] in `by`, each
 * server in one pair at most, the two alike in every other field of their specs.
 */
function serverPairs(scenario, servers) {
  const decl = scenario.pairedServers;
  if (!decl) return [];
  const [first, second] = decl.values;
  const taken = new Set();
  const pairs = [];
  for (const a of servers) {
    if (a.spec?.[decl.by] !== first || taken.has(a)) continue;
    const b = servers.find((s) => !taken.has(s) && s !== a && s.spec?.[decl.by] === second && specWithout(s.spec, decl.by) === specWithout(a.spec, decl.by));
    if (!b) continue;
    taken.add(a).add(b);
    pairs.push([a, b]);
  }
  return pairs;
}

/**
 * The groups of servers a run takes in turn (run/benchmarks.js): all of them together where they
 * share their sizes (joint), else one at a time, except that servers some scenario pairs are
 * started together, both being up while the pair runs.
 */
function serverGroups(specs, scenarios, joint) {
  if (joint) return [specs];
  const groups = specs.map((spec) => [spec]);
  for (const scenario of scenarios) {
    for (const [a, b] of serverPairs(scenario, specs.map((spec) => ({ spec })))) {
      // the later group joins the earlier, which keeps its place in the run
      const [ga, gb] = [a, b].map((s) => groups.find((g) => g.includes(s.spec))).sort((x, y) => groups.indexOf(x) - groups.indexOf(y));
      if (ga === gb) continue;
      ga.push(...gb);
      groups.splice(groups.indexOf(gb), 1);
    }
  }
  // each group's servers in the run's order
  return groups.map((g) => specs.filter((s) => g.includes(s)));
}

/**
 * The companions a scenario brings beside a server of the run: where the run's default server
 * (`embedded`) turned out to be of the kind companions.beside, the specs companions.servers
 * names (parsed), none of them a server the run already names (the user chose the servers).
 */
function companionSpecs(scenario, { spec, kind }, runSpecs) {
  const decl = scenario.companions;
  if (!decl || spec.kind !== 'embedded' || kind !== decl.beside) return [];
  const specs = decl.servers.map((text) => parseServerSpec(text));
  if (specs.some((s) => runSpecs.some((r) => r.name === s.name))) return [];
  return specs;
}

/** The id a server's n-th block line of a round marks in its partner's turns collection (the scripts' partnerTurn builds the same). */
const blockMarkId = (round, server, n) => `${round}:${server}#${n}`;
/** Whether a turn line asks for a meeting rather than for the partner's block. */
const isMeeting = (turn) => typeof turn?.variant === 'string' && turn.variant.endsWith('#meet');

/**
 * Where the two sides of a pair meet before each step: { paired: true } once both have arrived
 * at the same step, { paired: false } where the other has left (its scenario ended or failed)
 * or will not come to this step (it skipped it, resumed, or is past it). Steps are ordinals in
 * the plan's order.
 */
class StepMeeting {
  constructor() {
    this.waiting = [null, null]; // { ordinal, resolve } per side
    this.gone = [false, false];
  }

  arrive(side, ordinal) {
    const other = 1 - side;
    return new Promise((resolve) => {
      if (this.gone[other]) return resolve({ paired: false });
      const there = this.waiting[other];
      if (there && there.ordinal === ordinal) {
        this.waiting[other] = null;
        there.resolve({ paired: true });
        return resolve({ paired: true });
      }
      if (there && there.ordinal > ordinal) return resolve({ paired: false });
      if (there) { this.waiting[other] = null; there.resolve({ paired: false }); }
      this.waiting[side] = { ordinal, resolve };
      return undefined;
    });
  }

  leave(side) {
    this.gone[side] = true;
    const there = this.waiting[1 - side];
    if (there) { this.waiting[1 - side] = null; there.resolve({ paired: false }); }
  }
}

/**
 * Both sides of one step: the marks one side's block lines put in the other's turns collection,
 * the meetings, and the waits each side announced, answered where the other side is gone.
 */
class PairedStep {
  constructor(pair) {
    this.pair = pair;
    this.counts = [new Map(), new Map()]; // round → block lines seen, per side
    this.asked = [new Map(), new Map()]; // id → turn, the waits each side announced and had no answer yet
    this.meetings = [new Map(), new Map()]; // round → id, the meetings each side asked for
    this.over = [false, false]; // a side's shells are gone
    this.chain = Promise.resolve();
    this.ended = [null, null];
    this.ends = [new Promise((r) => { this.ended[0] = r; }), new Promise((r) => { this.ended[1] = r; })];
  }

  /** Writes a mark into a side's turns collection, once (a second write of one id is taken as done). */
  mark(side, id, fields) {
    this.chain = this.chain.then(async () => {
      try {
        await this.pair.turns(side).insertOne({ _id: id, at: new Date(), ...fields });
      } catch (err) {
        if (err?.code === 11000) return; // marked already
        // the server is gone or refuses: its shells are stopped by the step's health watch
        this.pair.options.log(`${this.pair.names[side]} · ${this.pair.scenario.name}: the turn ${id} could not be marked (${errorLine(err)})`);
      }
    });
    this.asked[side].delete(id);
  }

  /** A line a side's script printed: a block's line marks it done for the other side. */
  line(side, line) {
    if (!Number.isInteger(line.round) || (line.worker !== undefined && line.worker !== 0)) return;
    const n = (this.counts[side].get(line.round) || 0) + 1;
    this.counts[side].set(line.round, n);
    this.mark(1 - side, blockMarkId(line.round, this.pair.names[side], n), { ok: true });
  }

  /** A turn line a side's script printed: a meeting, or a wait for the other's block. */
  turn(side, turn) {
    const other = 1 - side;
    const id = String(turn.id);
    if (isMeeting(turn)) {
      this.meetings[side].set(turn.round, id);
      if (this.over[other]) return this.mark(side, id, { ok: false, error: 'the partner\'s step is over' });
      const theirs = this.meetings[other].get(turn.round);
      if (theirs !== undefined) {
        this.mark(side, id, { ok: true });
        this.mark(other, theirs, { ok: true });
      } else {
        this.asked[side].set(id, turn);
      }
      return undefined;
    }
    // a block the other side has ended already is marked; one it will never run is answered now
    if (this.over[other]) return this.mark(side, id, { ok: false, error: 'the partner\'s step is over' });
    this.asked[side].set(id, turn);
    return undefined;
  }

  /**
   * A side's shells are gone: every wait the other announced and had no answer is answered now,
   * and once the marks are written, this side waits for the other's shells to be gone too (each
   * side reads its stats and starts its next step only once neither runs a timed block).
   */
  async close(side) {
    this.over[side] = true;
    const other = 1 - side;
    for (const id of [...this.asked[other].keys()]) this.mark(other, id, { ok: false, error: 'the partner\'s step is over' });
    await bounded(this.chain, SETTLE_MS);
    this.ended[side]();
    await this.ends[other];
  }

  /** The other side did not come to this step (it left, or skipped it): nothing of it will end. */
  abandon(side) {
    this.over[side] = true;
    this.ended[side]();
  }
}

/**
 * One scenario on two servers at once. sides[i] is what run/steps.js's runScenario takes as its
 * partner on server i: openStep before each step (both meet there), whose answer gives the
 * step's shells PARTNER, SERVER_NAME and SEED and handles their lines.
 */
class ServerPair {
  constructor({ scenario, servers, plan, seed, options }) {
    Object.assign(this, { scenario, servers, plan, seed, options });
    this.names = servers.map((r) => r.server.name);
    this.meeting = new StepMeeting();
    this.steps = new Map(); // ordinal → PairedStep
    this.sides = [0, 1].map((i) => new PairSide(this, i));
  }

  turns(side) {
    return this.servers[side].client.db(this.scenario.database).collection('turns');
  }

  /** The step both sides run at an ordinal, made by whichever asks first. */
  stepAt(ordinal) {
    if (!this.steps.has(ordinal)) this.steps.set(ordinal, new PairedStep(this));
    return this.steps.get(ordinal);
  }
}

/** One server's side of a pair, as runScenario's partner. */
class PairSide {
  constructor(pair, index) {
    Object.assign(this, { pair, index });
    this.ordinals = null;
  }

  /** A step's place in the plan's order (the pair's plan is the same on both servers). */
  ordinalOf(step, pass) {
    if (!this.ordinals) this.ordinals = new Map(this.pair.plan.steps.flatMap((s) => s.passes.map((p) => `${s.name}|${p}`)).map((k, i) => [k, i]));
    return this.ordinals.get(`${step.name}|${pass}`);
  }

  /**
   * Before a step: this side's turns emptied (marks of an earlier step name only their round),
   * then a meeting with the other side. Paired, the step's shells get the pair's variables and
   * their lines go to the pair; alone (the other left or skips it), the step runs unpaired.
   */
  async openStep(step, { pass }) {
    const { pair, index } = this;
    const ordinal = this.ordinalOf(step, pass);
    await pair.turns(index).deleteMany({});
    const { paired } = await pair.meeting.arrive(index, ordinal);
    const shared = pair.stepAt(ordinal);
    if (!paired) {
      shared.abandon(index);
      return null;
    }
    return {
      vars: { PARTNER: pair.names[1 - index], SERVER_NAME: pair.names[index], SEED: pair.seed },
      onLine: (line) => shared.line(index, line),
      onTurn: (turn) => shared.turn(index, turn),
      close: () => shared.close(index),
      lines: [],
    };
  }

  /** This side's scenario is over on its server (done, failed or dead): the other goes on alone. */
  leave() {
    this.pair.meeting.leave(this.index);
  }
}

/**
 * The progress a side's steps report to: the first side's, its label naming both servers; the
 * second side's, silent (one bar, one line per step of the pair).
 */
function sideProgress(progress, names, index) {
  if (index === 1) return { startStep() {}, update() {}, endStep() {} };
  const prefix = `${names[0]} · `;
  return {
    ...progress,
    startStep: (label, ...rest) => progress.startStep(label.startsWith(prefix) ? `${names[0]} with ${names[1]} · ${label.slice(prefix.length)}` : label, ...rest),
  };
}

/** A seed for a pair whose run named none: both servers must draw one order and one day of data. */
function pairSeed(options) {
  return options.seed ?? crypto.randomInt(1, 2 ** 31 - 1);
}

module.exports = {
  serverPairs, serverGroups, companionSpecs, blockMarkId, isMeeting, StepMeeting, PairedStep, ServerPair, pairSeed, sideProgress,
};
