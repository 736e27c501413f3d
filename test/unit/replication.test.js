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
const { flowControlReason } = require('../../orchestrator/analysis/replication');
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
    const refusing = { db: () => ({ command: async () => { throw Object.assign(new Error('not authorized on admin to execute command { serverStatus: 1 }'), { code: 13 }); } }) };
    const refused = await readFlowControl(refusing, replicaSet);
    assert.equal(refused.engaged, null);
    assert.match(refused.why, /^serverStatus refused \(not authorized/);
    assert.deepEqual(flowControlDuring(refused, await readFlowControl(answering(rs.flowControlCalm), replicaSet)), { engaged: null, why: refused.why });
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

    it('counts each step\'s wait once, however many records carry its mark', () => {
      const records = [{ step: 'load', pass: 1, flowControl: mark }, { step: 'load', pass: 1, flowControl: mark }, { step: 'load', pass: 2, flowControl: { engaged: true, waitedMs: 1 } }];
      assert.deepEqual(flowControlReason(records), { code: 'flow-control', steps: ['load pass 1', 'load pass 2'], waitedMs: mark.waitedMs + 1 });
      assert.equal(flowControlReason([{ step: 'load' }]), null);
    });
  });
});
