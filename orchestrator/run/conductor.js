'use strict';
// The partner of a paired step: a block of a round the script cannot run itself (a scenario's
// baseline on PostgreSQL, scenario.json's baseline: its module and the variant its blocks stand
// for), run by the kit in its place in the round, while the server the
// script writes to runs too, so a drift of the machine lands on both sides of a pair. The
// scenario's baseline server is started before its steps run on a server (its probes, or its
// run) and kept for them; each step that has a partner side gets PARTNER; when the script prints
// a turn line, the conductor runs that round's block, records it, and marks the turn done in the
// turns collection of the scenario's database, where the script waits for it (with ok false
// where the block failed: no script waits for a block that will never come). A machine without
// PostgreSQL (optional) records why once, and the steps run without a partner.
const path = require('node:path');
const { startPostgres } = require('../servers/postgres');
const { postgresStoreOf, readPostgresSettings } = require('../servers/store-settings');
const { postgresMissing } = require('../capabilities');
const { onCleanup } = require('../processes');
const { errorLine, bounded } = require('./settle');
const { ScriptError } = require('../errors');

/** How long a step's partner waits for a block still running once its shells have gone (they died), before it lets go. */
const SETTLE_MS = 10000;

/**
 * One step's partner side: opened before the step's shells start (its table emptied, its
 * connections open), it answers their turns one at a time and, once they are done, writes the
 * step's total (the blocks summed) where every block ran.
 */
class StepPartner {
  constructor({ session, step, side, vars, pass, repetition }) {
    Object.assign(this, { session, step, side, pass, repetition });
    this.rounds = vars.ROUNDS;
    // the variant its blocks stand for in the rounds' orders and the script's turn lines (scenario.json)
    this.variant = session.scenario.baseline.variant;
    this.vars = { PARTNER: session.name };
    this.chain = Promise.resolve();
    this.busy = false;
    this.done = 0; // the counted turns answered (a warm-up's, round 0, is run and not counted)
    this.broken = null; // why a block failed: later turns of the step are answered at once
    this.abandoned = false;
    this.seen = new Map(); // round → the script's own blocks of it seen so far, from the shell that speaks
    this.lines = []; // each counted block's line: a probe sizes the partner's blocks too
    this.onTurn = (turn) => { this.chain = this.chain.then(() => this.answer(turn)); };
    this.onLine = (line) => {
      if (Number.isInteger(line.round) && (line.worker === undefined || line.worker === 0)) this.seen.set(line.round, (this.seen.get(line.round) || 0) + 1);
    };
  }

  /** Fields every record of this step's partner carries. */
  get tags() {
    const { session, repetition } = this;
    return {
      scenario: session.scenario.name, server: session.name, baselineFor: session.scenario.name, forServers: [session.server.name],
      step: this.step.name, pass: this.pass,
      ...(repetition ? { repeat: repetition.repeat, ...(repetition.warmup ? { warmup: true } : {}) } : {}),
    };
  }

  /** A turn: the round's block, its record, then the mark the script waits for. */
  async answer(turn) {
    const { session } = this;
    const round = Number(turn.round);
    let ok = false;
    let error = null;
    this.busy = true;
    try {
      // round 0: the warm-up block the script runs before round 1, in round 1's order
      if (turn.variant !== this.variant || !Number.isInteger(round) || round < 0 || round > this.rounds) {
        throw new ScriptError(`the script asked for ${JSON.stringify(turn)}, not a ${this.variant} block of round 0 (the warm-up) to ${this.rounds}`, { script: this.step.script, server: session.server.name });
      }
      if (this.broken) throw new ScriptError(`an earlier block failed (${this.broken})`, { script: this.step.script, server: session.server.name });
      if (this.abandoned) throw new ScriptError('the step is over', { script: this.step.script, server: session.server.name });
      // a side may run several variants in its turn (log-inserts' SQL side: its default and
      // synchronous_commit=off), a line each, one after the other
      const lines = [].concat(await this.side.block(round));
      const before = this.seen.get(round) || 0;
      lines.forEach((line, i) => {
        if (!line.warmup) this.lines.push(line);
        // its place in the round: the turn's, after the script's own blocks of the round printed
        // so far (several lines of one turn: each its place in the turn too, inTurn); how busy
        // the machine was during it (run/contention.js), or null: not measured
        session.results?.append({
          type: 'block', ...line, position: before + 1, ...(lines.length > 1 ? { inTurn: i + 1 } : {}), ...this.tags,
          contention: session.options.contention?.ofBlock(line) ?? null,
        });
      });
      if (round > 0) this.done += 1;
      ok = true;
    } catch (err) {
      error = errorLine(err);
      if (!this.broken && !this.abandoned && !session.options.isInterrupted?.()) session.fail(this.step.name, `round ${turn.round}: ${error}`, { round });
      this.broken ??= error;
    } finally {
      this.busy = false;
    }
    try {
      await session.turns().insertOne({ _id: String(turn.id), at: new Date(), ok, ...(error ? { error } : {}) });
    } catch (err) {
      // the server is gone or refuses: its shells are stopped by the step's health watch
      session.options.log(`${session.server.name} · ${session.scenario.name} · ${this.step.name}: the turn ${turn.id} could not be marked (${errorLine(err)})`);
    }
  }

  /**
   * Once the step's shells are gone: a block still running (they died) is given SETTLE_MS, the
   * connections end, and where every round's block ran, the step's total is recorded.
   */
  async close() {
    // a turn from now on (a shell left behind by one that died) is answered, not recorded
    this.abandoned = true;
    if (this.busy) await this.side.close();
    await bounded(this.chain, SETTLE_MS);
    try {
      if (this.done === this.rounds && !this.broken && this.session.results) {
        // the side reads its store's settings on the session that ran its timed blocks, after them
        for (const total of [].concat(await this.side.total({ readSettings: readPostgresSettings }))) this.session.results.append({ type: 'measurement', ...total, ...this.tags });
      }
    } catch (err) {
      this.session.fail(this.step.name, `its total: ${errorLine(err)}`);
    } finally {
      await this.side.close();
    }
  }
}

/**
 * A scenario's partner on one server, for its probes or its run: the baseline server started,
 * kept until stop(), and each step's side opened as the step starts.
 */
class PartnerSession {
  constructor({ conductor, scenario, server, client, pg, record }) {
    Object.assign(this, { conductor, scenario, server, client, pg });
    this.name = scenario.baseline.server;
    this.options = conductor.options;
    this.results = record ? conductor.results : null;
    this.module = require(scenario.baselinePath);
    this.unregister = onCleanup(() => pg.stop());
  }

  turns() {
    return this.client.db(this.scenario.database).collection('turns');
  }

  /** A failure of the partner: recorded (in a run, not a probe) and counted; the step goes on. */
  fail(step, error, extra = {}) {
    this.options.log(`FAILED ${this.name} · ${this.scenario.name} · ${step}: ${error}`);
    if (!this.results) return;
    this.results.append({ type: 'failure', scenario: this.scenario.name, server: this.name, forServers: [this.server.name], step, ...extra, error });
    this.conductor.failures += 1;
  }

  /**
   * The partner of one step, or null where it has none there (the article wrote no SQL rows in
   * its test 3) or its side cannot open (recorded: the step runs without it). vars: the step's.
   */
  async openStep(step, { vars, pass = 0, repetition = null }) {
    const workers = step.workers === 'cores' ? this.options.workers : step.workers || 1;
    let side;
    try {
      side = await this.module.openStep({
        connectionString: this.pg.url(this.scenario.database), step: step.name, sizes: vars, workers, rounds: vars.ROUNDS,
      });
      if (!side) return null;
      // marks of an earlier step (their ids name only the round) must not answer this one's turns
      await this.turns().deleteMany({});
    } catch (err) {
      if (side) await side.close();
      this.fail(step.name, `could not open: ${errorLine(err)}; the step runs without it`);
      return null;
    }
    return new StepPartner({ session: this, step, side, vars, pass, repetition });
  }

  async stop() {
    this.unregister();
    await this.pg.stop();
  }
}

/** The run's partners: the baseline servers its scenarios pair with, their records written once. */
class Conductor {
  constructor({ options, results, config, logDir }) {
    Object.assign(this, { options, results, config, logDir });
    this.failures = 0;
    this.said = new Set();
  }

  /** Once per run: a line and a record that would only repeat. */
  once(key, fn) {
    if (this.said.has(key)) return;
    this.said.add(key);
    fn();
  }

  /**
   * The partner of a scenario on a server (ready: the prepared server, its client), started for
   * its probes (record false: nothing it measures is recorded) or its run; null where the
   * scenario has none, the run skips baselines (--no-baseline), the machine has no PostgreSQL
   * (recorded once, as unavailable) or it would not start (a failure, recorded once).
   */
  async open({ scenario, ready, record = true }) {
    if (!scenario.baseline || this.options.baselines === false) return null;
    const { options, results, config } = this;
    const name = scenario.baseline.server;
    // a machine without PostgreSQL (optional: npm run setup skips it in one line) records why,
    // and the findings held against the baseline say they cannot be tested here, with that reason
    const missing = postgresMissing(config);
    if (missing) {
      if (record) {
        this.once(`unavailable|${scenario.name}`, () => {
          results.append({ type: 'measurement', scenario: scenario.name, server: name, baselineFor: scenario.name, unavailable: missing });
          options.log(`${name}: not run, because ${missing}`);
        });
      }
      return null;
    }
    let pg;
    try {
      pg = await startPostgres({ binDir: config.postgresBinDir, logFile: path.join(this.logDir, `${name}-postgres.log`), pgDir: config.pgDir, templates: true });
      await pg.createDatabase(scenario.database);
    } catch (err) {
      if (pg) await pg.stop();
      if (record) {
        results.append({ type: 'failure', scenario: scenario.name, server: name, forServers: [ready.server.name], step: 'start', error: errorLine(err) });
        this.failures += 1;
      }
      options.log(`FAILED ${name} · ${scenario.name} · start: ${errorLine(err)}; ${scenario.name} runs on ${ready.server.name} without it`);
      return null;
    }
    if (record && !this.said.has(`server|${name}`)) {
      // its settings as a new session starts with them; each step's own session says its own (sessionSettings)
      const store = await postgresStoreOf(pg.url(scenario.database), 'a new session on the baseline\'s database');
      this.once(`server|${name}`, () => {
        results.append({
          type: 'server', server: name, spec: name, description: scenario.baseline.label, startedByKit: true,
          product: 'PostgreSQL', version: pg.version, engine: 'heap tables', baselineFor: scenario.name, store,
        });
        options.log(`${name}: PostgreSQL ${pg.version} (${scenario.baseline.label}), its blocks interleaved with each server's`);
      });
    }
    return new PartnerSession({ conductor: this, scenario, server: ready.server, client: ready.client, pg, record });
  }
}

module.exports = { Conductor };
