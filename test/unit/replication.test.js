'use strict';
// Replication counted: flow control read before and after each step on a replica set's primary
// (run/flow-control.js), on serverStatus answers shaped as the server's source and manual give
// them (test/fixtures/cluster/replica-set-answers.js, their sources named there); a step during
// which it engaged says so in every verdict resting on it (analysis/replication.js).
const assert = require('node:assert/strict');
const rs = require('../fixtures/cluster/replica-set-answers');
const {
  flowControlUnread, flowControlOf, readFlowControl, flowControlDuring, flowControlMark,
} = require('../../orchestrator/run/flow-control');
const { flowControlReason, flowControlUnknownReason } = require('../../orchestrator/analysis/replication');
const { defaultConcerns, describeDeployment } = require('../../orchestrator/servers/deployment');
const { reasonText } = require('../../orchestrator/analysis/reasons');
const { analyseScenario } = require('../../orchestrator/analysis/analyse');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { withBlocks } = require('../helpers/blocks');

const replicaSet = { server: 'rs', product: 'MongoDB', topology: 'replicaSet' };
const answering = (flowControl) => ({ db: () => ({ command: async (c, options) => { assert.deepEqual(c, { serverStatus: 1 }); assert.equal(options.readPreference, 'primary'); return { ok: 1, flowControl }; } }) });

describe('flow control around each step', () => {
  it('reads the primary\'s flowControl section as numbers', async () => {
    assert.deepEqual(await readFlowControl(answering(rs.flowControlCalm), replicaSet), {
      enabled: true, isLagged: false, isLaggedCount: 0, isLaggedTimeMicros: 0, timeAcquiringMicros: 76, targetRateLimit: 1000000000,
    });
    assert.equal(flowControlOf({ ok: 1 }), null, 'a server before 4.2 has no such section');
  });

  it('says a step engaged flow control where the primary was lagged, with how long its writes waited for tickets', () => {
    const during = flowControlDuring(flowControlOf({ flowControl: rs.flowControlCalm }), flowControlOf({ flowControl: rs.flowControlLagged }));
    assert.equal(during.engaged, true);
    assert.equal(during.laggedTimes, 1);
    assert.equal(during.waitedMs, (1838346 - 76) / 1000);
    assert.equal(during.laggedMs, 4100);
    assert.deepEqual(flowControlMark(during), { engaged: true, waitedMs: during.waitedMs, laggedTimes: 1 });
    const calm = flowControlDuring(flowControlOf({ flowControl: rs.flowControlCalm }), flowControlOf({ flowControl: { ...rs.flowControlCalm, timeAcquiringMicros: 90 } }));
    assert.equal(calm.engaged, false, 'a ticket taken without waiting is no throttle');
    assert.equal(flowControlMark(calm), null);
  });

  it('says why where it cannot be read: no replication, through mongos, or a user who may not run serverStatus', async () => {
    assert.deepEqual(flowControlUnread({ product: 'MongoDB', topology: 'standalone' }), { engaged: false, why: 'a standalone replicates nothing, so flow control never engages' });
    assert.equal(flowControlUnread({ product: 'MongoDB', topology: 'sharded' }).engaged, null);
    assert.equal(flowControlUnread({ product: 'MongoDB', topology: 'atlas', atlas: { shape: 'sharded' } }).engaged, null);
    assert.equal(flowControlUnread({ product: 'MongoDB', topology: 'atlas', atlas: { shape: 'replicaSet' } }), null, 'read on Atlas of a replica set\'s shape');
    assert.deepEqual(flowControlUnread({ product: 'FerretDB', topology: 'standalone' }), { engaged: false, why: 'a server without replication has no flow control' });
    const refusing = { db: () => ({ command: async () => { throw rs.serverStatusUnauthorized; } }) };
    const refused = await readFlowControl(refusing, replicaSet);
    assert.deepEqual(refused, { engaged: null, why: 'unknown (not permitted: serverStatus needs the clusterMonitor role)' });
    const during = flowControlDuring(refused, await readFlowControl(answering(rs.flowControlCalm), replicaSet));
    assert.deepEqual(during, { engaged: null, why: refused.why });
    assert.deepEqual(flowControlMark(during), { engaged: null, why: refused.why }, 'each record of the step says it is not known');
    // told apart by the code, not the words: the same words with another code are not a missing privilege
    const other = { db: () => ({ command: async () => { throw Object.assign(new Error(rs.serverStatusUnauthorized.message), { code: 11600, codeName: 'InterruptedAtShutdown' }); } }) };
    assert.deepEqual(await readFlowControl(other, replicaSet), { engaged: null, why: 'unknown (serverStatus refused: InterruptedAtShutdown)' });
    assert.equal(flowControlMark(flowControlDuring(flowControlUnread({ product: 'FerretDB' }), flowControlUnread({ product: 'FerretDB' }))), null, 'a server without replication: nothing to say');
  });

  describe('in the verdicts', () => {
    const { shellDir, root } = resolveConfig();
    const scenario = discoverScenarios(shellDir, root).find((s) => s.name === 'many-keys');
    const { mk } = require('../../shell/many-keys/test/verdict-cases');
    const mark = flowControlMark(flowControlDuring(flowControlOf({ flowControl: rs.flowControlCalm }), flowControlOf({ flowControl: rs.flowControlLagged })));
    const verdictOf = (records) => analyseScenario(scenario, { ...withBlocks(records.map((r) => ({ scenario: 'many-keys', server: 's', ...r })), { counts: ['updates'] }), sizesOf: () => scenario.sizes.article })
      .verdicts.find((v) => v.finding === 'buckets-faster');

    it('says so in a verdict resting on a step during which flow control engaged, and keeps its status', () => {
      const calm = verdictOf(mk(18.35, 1.47));
      const throttled = verdictOf(mk(18.35, 1.47).map((r) => ({ ...r, flowControl: mark })));
      assert.equal(throttled.status, calm.status);
      const reason = throttled.reasons.find((r) => r.code === 'flow-control');
      assert.deepEqual(reason, { code: 'flow-control', steps: ['update'], waitedMs: mark.waitedMs });
      assert.match(reasonText(reason), /^flow control engaged during update: the primary's majority commit point lagged, so the writes were throttled to let the secondaries catch up, its writes waiting 1,838\.3 ms for tickets, and both clocks include that wait$/);
      assert.equal(calm.reasons.some((r) => r.code === 'flow-control'), false);
    });

    it('says through mongos, or where serverStatus was refused, that whether flow control throttled the timed writes is not known, and keeps the status', () => {
      const unknown = flowControlMark(flowControlDuring(flowControlUnread({ product: 'MongoDB', topology: 'sharded' }), flowControlUnread({ product: 'MongoDB', topology: 'sharded' })));
      assert.equal(unknown.engaged, null);
      const calm = verdictOf(mk(18.35, 1.47));
      const open = verdictOf(mk(18.35, 1.47).map((r) => ({ ...r, flowControl: unknown })));
      assert.equal(open.status, calm.status);
      const reason = open.reasons.find((r) => r.code === 'flow-control-unknown');
      assert.deepEqual(reason, { code: 'flow-control-unknown', steps: ['update'], why: unknown.why });
      assert.match(reasonText(reason), /^whether flow control throttled the writes of update is not known \(through mongos: each shard's primary keeps its own flow control, which mongos does not report\)/);
      const notPermitted = flowControlUnknownReason([{ step: 'load', pass: 1, writeConcern: 'w:1', flowControl: { engaged: null, why: 'unknown (not permitted: serverStatus needs the clusterMonitor role)' } }]);
      assert.match(reasonText(notPermitted), /not known \(unknown \(not permitted: serverStatus needs the clusterMonitor role\)\)/);
      assert.equal(flowControlUnknownReason([{ step: 'read', flowControl: unknown }]), null, 'a read waits for no ticket: a record naming no write concern does not count');
    });

    it('counts each step\'s wait once, however many records carry its mark', () => {
      const records = [{ step: 'load', pass: 1, flowControl: mark }, { step: 'load', pass: 1, flowControl: mark }, { step: 'load', pass: 2, flowControl: { engaged: true, waitedMs: 1 } }];
      assert.deepEqual(flowControlReason(records), { code: 'flow-control', steps: ['load pass 1', 'load pass 2'], waitedMs: mark.waitedMs + 1 });
      assert.equal(flowControlReason([{ step: 'load' }]), null);
    });
  });
});

describe('the default read and write concerns, told apart by the refusal\'s code', () => {
  const replicaSetHello = rs.helloFiveMembers;
  const refusing = (err) => ({ command: async (c) => { if (c.replSetGetConfig) return rs.replSetGetConfigFiveMembers; throw err; } });

  it('records "unknown (not permitted)" where the user may not run getDefaultRWConcern (Unauthorized), never "no replication"', async () => {
    const concerns = await defaultConcerns(refusing(rs.getDefaultRWConcernUnauthorized), replicaSetHello);
    const source = 'unknown (not permitted: getDefaultRWConcern needs the clusterMonitor role)';
    assert.deepEqual(concerns, { defaultWriteConcern: { w: null, source }, defaultReadConcern: { level: null, source } });
    const facts = await describeDeployment(refusing(rs.getDefaultRWConcernUnauthorized), replicaSetHello, {});
    assert.equal(facts.defaultWriteConcern.w, null, 'a replica set\'s default is w:majority, not the w:1 the old path claimed');
    assert.doesNotMatch(JSON.stringify(facts), /no replication/);
    // a standalone's hello does not turn a missing privilege into "no replication" either
    assert.doesNotMatch(JSON.stringify(await defaultConcerns(refusing(rs.getDefaultRWConcernUnauthorized), { isWritablePrimary: true })), /no replication/);
  });

  it('records no replication for 51300 (a standalone) alone, and for CommandNotFound where hello says a standalone (FerretDB, a mongod before 4.4)', async () => {
    assert.deepEqual(await defaultConcerns(refusing(rs.getDefaultRWConcernStandalone), { isWritablePrimary: true }), {
      defaultWriteConcern: { w: 1, source: 'no replication (getDefaultRWConcern: code 51300, a standalone)' },
      defaultReadConcern: { level: 'local', source: 'no replication (getDefaultRWConcern: code 51300, a standalone)' },
    });
    const ferretdb = await defaultConcerns(refusing(rs.getDefaultRWConcernNotFound), { isWritablePrimary: true, logicalSessionTimeoutMinutes: 30 });
    assert.equal(ferretdb.defaultWriteConcern.w, 1);
    assert.equal(ferretdb.defaultWriteConcern.source, 'no replication (getDefaultRWConcern: CommandNotFound, and hello says a standalone)');
    const oldSet = await defaultConcerns(refusing(rs.getDefaultRWConcernNotFound), replicaSetHello);
    assert.deepEqual(oldSet.defaultWriteConcern, { w: null, source: 'unknown (getDefaultRWConcern: CommandNotFound)' }, 'a replica set before 4.4 replicates');
    const shardMember = Object.assign(new Error('\'getDefaultRWConcern\' is not supported on shard nodes.'), { code: 51301, codeName: 'Location51301' });
    assert.deepEqual((await defaultConcerns(refusing(shardMember), replicaSetHello)).defaultWriteConcern, { w: null, source: 'unknown (getDefaultRWConcern: code 51301)' });
    // the words alone decide nothing: a standalone's message under another code is not a standalone
    const words = Object.assign(new Error(rs.getDefaultRWConcernStandalone.message), { code: 6 });
    assert.equal((await defaultConcerns(refusing(words), { isWritablePrimary: true })).defaultWriteConcern.w, null);
  });
});
