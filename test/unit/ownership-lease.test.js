'use strict';
// The kit's databases and its lease where the user may not do everything: refusals as mongod
// (code 13, Unauthorized) and Atlas's shared and Flex tiers (code 8000, AtlasError) answer them,
// on stand-in databases that record what the kit asked.
const assert = require('node:assert/strict');
const { isRefused, refusalText, emptyDatabase, claimDatabase, dropOwnedDatabase, MARK_COLLECTION } = require('../../orchestrator/run/ownership');
const { isTierRefusal } = require('../../orchestrator/servers/atlas');
const { acquireLease } = require('../../orchestrator/run/lease');
const { ServerBusyError, UsageError, NotOursError } = require('../../orchestrator/errors');

const unauthorized = (what = 'dropDatabase') => Object.assign(new Error(`not authorized on classics_x to execute command { ${what}: 1 }`), { code: 13, codeName: 'Unauthorized' });
const atlasRefusal = (what = 'dropDatabase') => Object.assign(new Error(`user is not allowed to do action [${what}] on [classics_x.]`), { code: 8000, codeName: 'AtlasError' });
const serverError = (code, codeName, message = codeName) => Object.assign(new Error(message), { code, codeName });

/** A database a readWrite user sees: it may drop collections, not the database. */
function readWriteDb(names, { refuse = unauthorized, marked = true } = {}) {
  const dropped = [];
  return {
    dropped,
    async dropDatabase() { throw refuse(); },
    listCollections: () => ({ toArray: async () => names.map((name) => ({ name })) }),
    collection: (name) => ({
      drop: async () => { dropped.push(name); return true; },
      findOne: async () => (name === MARK_COLLECTION && marked ? { _id: 'mongo-classics' } : null),
      updateOne: async () => ({}),
    }),
  };
}

describe('refusals', () => {
  it('knows mongod\'s and Atlas\'s, and nothing else', () => {
    assert.ok(isRefused(unauthorized()));
    assert.ok(isRefused(atlasRefusal()));
    assert.ok(isRefused(serverError(8000, 'AtlasError', '(Unauthorized) not authorized on admin to execute command { replSetGetConfig: 1 }')));
    assert.ok(!isRefused(serverError(8000, 'AtlasError', 'you are over your space quota, using 513 MB of 512 MB')));
    assert.ok(!isRefused(serverError(11000, 'DuplicateKey')));
    assert.ok(!isRefused(new Error('connection closed')));
    assert.ok(!isRefused(undefined));
  });

  it('tells a tier\'s "not allowed" from a missing privilege, and never words the first as the second', async () => {
    // the texts Atlas documents ("Unsupported Commands in Atlas") and those it gave before
    const tier = [
      serverError(8000, 'AtlasError', 'fsync is not allowed or the syntax is incorrect, see the Atlas documentation for more information'),
      serverError(8000, 'AtlasError', 'CMD_NOT_ALLOWED: mapreduce'),
      serverError(8000, 'AtlasError', '{getParameter: 1, featureCompatibilityVersion: ""} not allowed in this atlas tier'),
    ];
    for (const err of tier) {
      assert.ok(isTierRefusal(err), err.message);
      assert.ok(isRefused(err), 'the kit goes on without it');
      assert.match(refusalText(err), /^this Atlas tier does not allow it: /);
    }
    assert.ok(!isTierRefusal(atlasRefusal()), 'a missing privilege through the proxy');
    assert.ok(!isTierRefusal(unauthorized()));
    assert.ok(!isTierRefusal(serverError(8000, 'AtlasError', 'you are over your space quota, using 513 MB of 512 MB')), 'a full quota fails its step');
    await assert.rejects(claimDatabase({ db: () => ({ listCollections: () => ({ toArray: async () => { throw tier[0]; } }) }) }, 'classics_x', { prefix: 'classics_', runId: 'r' }),
      (err) => /this Atlas tier does not allow it/.test(err.message) && !/needs readWrite/.test(err.message));
  });
});

describe('the kit\'s databases for a readWrite user', () => {
  for (const [label, refuse] of [['mongod', unauthorized], ['Atlas M0/Flex', atlasRefusal]]) {
    it(`empties a database collection by collection where ${label} refuses dropDatabase, the mark last, system collections left`, async () => {
      const db = readWriteDb([MARK_COLLECTION, 'left', 'system.views', 'right'], { refuse });
      await emptyDatabase(db);
      assert.deepEqual(db.dropped, ['left', 'right', MARK_COLLECTION]);
    });
  }

  it('does not take another error for a refusal', async () => {
    const db = readWriteDb(['left'], { refuse: () => serverError(91, 'ShutdownInProgress') });
    await assert.rejects(emptyDatabase(db), /ShutdownInProgress/);
    assert.deepEqual(db.dropped, []);
  });

  it('says in one line, and does not throw, when the clean-up after a run is refused', async () => {
    const db = readWriteDb(['left']);
    db.collection = (name) => ({ findOne: async () => (name === MARK_COLLECTION ? { _id: 1 } : null), drop: async () => { throw unauthorized('drop'); } });
    const line = await dropOwnedDatabase({ db: () => db }, 'classics_x', { prefix: 'classics_' });
    assert.match(line, /^could not drop the kit's database classics_x after the run \(Unauthorized\); drop it yourself/);
  });

  it('names the database and the role needed where the user may not use a database at all', async () => {
    const db = { listCollections: () => ({ toArray: async () => { throw unauthorized('listCollections'); } }) };
    await assert.rejects(claimDatabase({ db: () => db }, 'classics_x', { prefix: 'classics_', runId: 'r' }),
      /^ClassicsError: the server refused the kit its database classics_x \(Unauthorized\): the user needs readWrite on classics_x, or readWriteAnyDatabase$/);
  });

  it('still refuses a database with the prefix that the kit did not mark', async () => {
    const db = readWriteDb(['precious'], { marked: false });
    await assert.rejects(claimDatabase({ db: () => db }, 'classics_x', { prefix: 'classics_', runId: 'r' }), NotOursError);
    assert.deepEqual(db.dropped, []);
  });
});

/** The lease collection as concurrent runs make it answer: `answers` are what each updateOne does. */
function leaseServer(answers, { holder = { runId: 'other-run', holder: 'h pid 1', heartbeatAt: new Date(0), expiresAt: new Date(30000) }, count = 0, dropDatabase } = {}) {
  const calls = [];
  let found = [];
  const leases = {
    updateOne: async () => { calls.push('updateOne'); const a = answers.shift(); if (a) throw a(); return {}; },
    findOne: async () => { calls.push('findOne'); return found.length ? found.shift() : holder; },
    deleteOne: async () => { calls.push('deleteOne'); return {}; },
    countDocuments: async () => { calls.push('countDocuments'); return count; },
    drop: async () => { calls.push('drop'); return true; },
  };
  const db = {
    collection: () => leases,
    dropDatabase: async () => { calls.push('dropDatabase'); if (dropDatabase) throw dropDatabase(); },
  };
  return { client: { db: () => db }, calls, findNext: (docs) => { found = docs; } };
}

describe('the lease', () => {
  const take = (server, extra = {}) => acquireLease(server.client, { serverName: 'mine', runId: 'this-run', ttlMs: 600000, ...extra });

  it('refuses a run while another holds the server, naming it', async () => {
    const server = leaseServer([() => serverError(11000, 'DuplicateKey')]);
    await assert.rejects(take(server), (err) => err instanceof ServerBusyError && /in use by run other-run \(h pid 1\)/.test(err.message));
  });

  it('tries again where the other run let go between the collision and the read', async () => {
    const server = leaseServer([() => serverError(11000, 'DuplicateKey')]);
    server.findNext([null]);
    const lease = await take(server);
    assert.deepEqual(server.calls, ['updateOne', 'findOne', 'updateOne']);
    await lease.release();
  });

  it('tries again while a released lease\'s database is being dropped', async () => {
    const server = leaseServer([() => serverError(215, 'DatabaseDropPending')]);
    const lease = await take(server);
    assert.deepEqual(server.calls, ['updateOne', 'updateOne']);
    await lease.release();
  });

  it('says in one line what a user who may not write classics_kit needs', async () => {
    for (const refuse of [unauthorized, atlasRefusal]) {
      const server = leaseServer([() => refuse('update')]);
      await assert.rejects(take(server), (err) => err instanceof UsageError
        && /^server 'mine' refused the kit its lease database classics_kit \(.+\): the user needs readWrite on classics_kit, on classics_calibration and on each scenario's classics_\* database, or readWriteAnyDatabase$/.test(err.message));
    }
  });

  it('drops the lease database when no lease is left, collection by collection for a readWrite user', async () => {
    const server = leaseServer([], { dropDatabase: unauthorized });
    const lease = await take(server);
    await lease.release();
    assert.deepEqual(server.calls.slice(1), ['deleteOne', 'countDocuments', 'dropDatabase', 'drop']);
  });

  it('leaves the lease database to a run still holding a lease', async () => {
    const server = leaseServer([], { count: 1 });
    const lease = await take(server);
    await lease.release();
    assert.deepEqual(server.calls.slice(1), ['deleteOne', 'countDocuments']);
  });

  it('says once that another run took its lease after it lapsed', async () => {
    const server = leaseServer([null, () => serverError(11000, 'DuplicateKey'), () => serverError(11000, 'DuplicateKey')]);
    const lines = [];
    const lease = await take(server, { ttlMs: 30, onLost: (l) => lines.push(l) });
    await new Promise((resolve) => { setTimeout(resolve, 60); });
    await lease.release();
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^server 'mine': run other-run took this run's lapsed lease/);
  });
});
