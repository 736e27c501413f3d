'use strict';
// The mongod launcher's pure parts: versions and the driver's floor, the lines that refuse,
// mongodb-memory-server's errors in one line, its stdout check made safe, TLS paths in URIs, and
// the stand-in kept honest (its default version, and the skip of every measuring suite on it).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const versions = require('../../orchestrator/servers/versions');
const { reasonOf, checkLineByLine, binaryVersion } = require('../../orchestrator/servers/mongod');
const { parseServerSpec } = require('../../orchestrator/servers/spec');
const { serverKind } = require('../../orchestrator/results/records');
const { UsageError } = require('../../orchestrator/errors');
const { STAND_IN, isStandIn, notMongodReason } = require('../helpers/servers');

describe('mongod versions and the driver\'s floor', () => {
  it('reads a mongod\'s --version as mongodb-memory-server does', () => {
    assert.equal(versions.parseVersionOutput('db version v7.0.14\nBuild Info: {\n    "version": "7.0.14"\n}\n'), '7.0.14');
    assert.equal(versions.parseVersionOutput('db version v4.2.19-11-ge2f2736\n'), '4.2.19-11-ge2f2736');
    assert.equal(versions.parseVersionOutput('db version v8.0.0-rc1'), '8.0.0-rc1');
    assert.equal(versions.parseVersionOutput('mongosh 2.12.0'), null);
    assert.equal(versions.parseVersionOutput(''), null);
  });

  it('takes its floor from the driver the kit and mongosh use (4.4, wire version 9, with mongodb 7)', () => {
    assert.equal(versions.MIN_SERVER_VERSION, require('mongodb/lib/cmap/wire_protocol/constants').MIN_SUPPORTED_SERVER_VERSION);
    assert.equal(versions.MIN_WIRE_VERSION, 9);
    for (const old of ['4.0.28', '4.2.1', '3.6.23', '2.6.12']) assert.ok(versions.isBelowFloor(old), old);
    for (const ok of ['4.4.0', '5.0.30', '7.0.14', '8.0.0-rc1', '10.0.0']) assert.ok(!versions.isBelowFloor(ok), ok);
  });

  it('turns the driver\'s refusal of an old wire version into which MongoDB it is, the floor and why', () => {
    // the two texts of mongodb 7.9: lib/cmap/connect.js and lib/sdam/topology_description.js
    const { MongoCompatibilityError } = require('mongodb');
    const fromHandshake = new MongoCompatibilityError('Server at 127.0.0.1:1234 reports maximum wire version 7, but this version of the Node.js Driver requires at least 9 (MongoDB 4.4)');
    // a server selection error whose cause is the driver's refusal
    const fromTopology = new Error('Server selection timed out', { cause: new MongoCompatibilityError('Server at h:1 reports wire version 6, but this version of the driver requires at least 9 (MongoDB 4.4).') });
    assert.equal(versions.compatibilityLine("server 'old'", fromHandshake),
      "server 'old' is MongoDB 4.0 (wire version 7); the kit needs MongoDB 4.4 or later, because the Node.js driver it and mongosh use (mongodb "
      + `${require('mongodb/package.json').version}) refuses servers older than 4.4 (wire version below 9)`);
    assert.match(versions.compatibilityLine('x', fromTopology), /^x is MongoDB 3\.6 \(wire version 6\); the kit needs MongoDB 4\.4 or later/);
    assert.match(versions.compatibilityLine('x', new MongoCompatibilityError('Server at h:1 requires wire version 40, but this version of the driver only supports up to 29 (MongoDB 9.0)')),
      /^x needs wire version 40, newer than the Node\.js driver .* speaks \(up to 29, MongoDB 9\.0\)/);
    assert.equal(versions.compatibilityLine('x', new Error('connect ECONNREFUSED 127.0.0.1:1')), null);
    // the same words in an error of another class are not the driver's refusal
    assert.equal(versions.compatibilityLine('x', new Error('Server at h:1 reports wire version 6, but this version of the driver requires at least 9 (MongoDB 4.4).')), null);
  });
});

describe('mongodb-memory-server\'s failures in one line', () => {
  const mms = require('mongodb-memory-server-core').errors;

  it('says which versions it has for this system when it has none of the one asked for', () => {
    const err = new mms.KnownVersionIncompatibilityError('Debian 12', '6.0.14', '>=7.0.3', 'Mongodb does not provide binaries for versions before 7.0.3 for Debian 12+');
    assert.equal(reasonOf(err, '6.0.14'), 'mongodb-memory-server has no mongod 6.0.14 for Debian 12 (it has >=7.0.3): set MONGOMS_SYSTEM_BINARY to a mongod 6.0.14');
  });

  it('says what mongod did: too slow, exited, or its own error, by the error\'s class and what the start knows, never by its message', () => {
    const starting = { launchTimeoutMs: 60000, mongod: { exitCode: 100, signalCode: null } };
    assert.equal(reasonOf(new mms.GenericMMSError('Instance failed to start within 60000ms'), '8.0.4', starting), 'mongod did not say "Waiting for connections" within 60 s');
    // the launch timeout is the start's: a message that says another number is not read
    assert.equal(reasonOf(new mms.GenericMMSError('Instance failed to start within 1ms'), '8.0.4', starting), 'mongod did not say "Waiting for connections" within 60 s');
    assert.equal(reasonOf(new mms.UnexpectedCloseError(7, 'SIGKILL'), '8.0.4', starting), 'mongod exited before it was ready (exit code 100, signal null)');
    assert.equal(reasonOf(new mms.UnexpectedCloseError(100, null)), 'mongod exited before it was ready (Instance closed unexpectedly with code "100" and signal "null")');
    // the same words from another class are not taken for it
    assert.equal(reasonOf(new Error('Instance failed to start within 60000ms'), '8.0.4', starting), 'Instance failed to start within 60000ms');
    assert.equal(reasonOf(new mms.DownloadError('https://x/mongodb.tgz', 'Status: 403', 'Status: 403'), '8.0.4'), 'mongodb-memory-server could not download mongod 8.0.4 (Status: 403)');
  });

  it('says mongod\'s own error from the log line it was raised on', () => {
    const { MongoInstance } = require('mongodb-memory-server-core');
    const instance = new MongoInstance({ instance: { port: 1, dbPath: '/nonexistent' } });
    checkLineByLine(instance, MongoInstance, mms.StdoutInstanceError);
    const seen = [];
    instance.on('instanceError', (err) => seen.push(err));
    instance.stdoutHandler(Buffer.from('{"t":{"$date":"2026-01-01T00:00:00.001+00:00"},"s":"E","c":"CONTROL","id":20557,"ctx":"initandlisten","msg":"DBException in initAndListen, terminating","attr":{"error":"DBPathInUse: Unable to lock the lock file"}}'));
    instance.stdoutHandler(Buffer.from('mongod: error while loading shared libraries: libcrypto.so.3: cannot open shared object file'));
    assert.deepEqual(seen.map((err) => reasonOf(err, '8.0.4')), [
      'mongod failed to start (DBException in initAndListen, terminating): DBPathInUse: Unable to lock the lock file',
      'mongod failed to start: Instance failed to start because a library is missing or cannot be opened: "libcrypto.so.3"',
    ]);
  });
});

describe('mongod\'s stdout checked one line at a time', () => {
  const { MongoInstance, errors } = require('mongodb-memory-server-core');
  // mongod's last two lines, as one read from its stdout can return them
  const chunk = Buffer.from([
    '{"t":{"$date":"2026-01-01T00:00:00.000+00:00"},"s":"I","c":"CONTROL","id":21951,"ctx":"initandlisten","msg":"Options set by command line"}',
    '{"t":{"$date":"2026-01-01T00:00:00.001+00:00"},"s":"E","c":"CONTROL","id":20557,"ctx":"initandlisten","msg":"DBException in initAndListen, terminating","attr":{"error":"DBPathInUse: Unable to lock the lock file"}}',
  ].join('\n'));

  it('mongodb-memory-server 11.3.0 alone throws on such a chunk (why the kit checks line by line)', () => {
    const instance = new MongoInstance({ instance: { port: 1, dbPath: '/nonexistent' } });
    assert.throws(() => instance.stdoutHandler(chunk), SyntaxError);
  });

  it('the kit\'s check reports mongod\'s own error instead, and a half line as what it is', () => {
    const instance = new MongoInstance({ instance: { port: 1, dbPath: '/nonexistent' } });
    checkLineByLine(instance, MongoInstance, errors.StdoutInstanceError);
    const seen = [];
    instance.on('instanceError', (err) => seen.push(err.message));
    instance.stdoutHandler(chunk);
    instance.stdoutHandler(Buffer.from('{"t":{"$date":"2026-01-01"},"msg":"DBException in initAndListen, terminating","attr":{"err'));
    assert.equal(seen.length, 2);
    assert.match(seen[0], /Original Error:\nDBPathInUse: Unable to lock the lock file$/);
    assert.match(seen[1], /^Instance failed to start\. Original Error:\n\{"t"/);
  });
});

describe('server specs a mongod cannot be had for, and URIs with TLS files', () => {
  it('refuses mongod@VERSION below 4.4 with the reason, and takes 4.4 and later', () => {
    assert.throws(() => parseServerSpec('mongod@4.0.28'), (err) => err instanceof UsageError && err.exitCode === 2
      && /^server spec 'mongod@4\.0\.28' asks for MongoDB 4\.0\.28: the kit needs MongoDB 4\.4 or later, because the Node\.js driver/.test(err.message));
    assert.throws(() => parseServerSpec('mongod@3.4.24:zlib'), /asks for MongoDB 3\.4\.24/);
    assert.equal(parseServerSpec('mongod@4.4.29').version, '4.4.29');
  });

  it('makes relative TLS file paths absolute from the user\'s folder, and leaves the rest of the URI as written', () => {
    const spec = parseServerSpec('p=mongodb://al:s3cret@h:1/db?tls=true&tlsCAFile=certs/my%20ca.pem&tlsCertificateKeyFile=/etc/k.pem&TLSCRLFILE=./crl.pem&authMechanismProperties=A:b', { cwd: '/home/me' });
    assert.equal(spec.uri, 'mongodb://al:s3cret@h:1/db?tls=true&tlsCAFile=/home/me/certs/my%20ca.pem&tlsCertificateKeyFile=/etc/k.pem&TLSCRLFILE=/home/me/crl.pem&authMechanismProperties=A:b');
    assert.equal(spec.spec, 'p=mongodb://al:****@h:1/db?tls=true&tlsCAFile=/home/me/certs/my%20ca.pem&tlsCertificateKeyFile=/etc/k.pem&TLSCRLFILE=/home/me/crl.pem&authMechanismProperties=A:b');
    const { MongoClient } = require('mongodb');
    assert.equal(new MongoClient(spec.uri).options.tlsCAFile, '/home/me/certs/my ca.pem');
    assert.equal(parseServerSpec('p=mongodb://h/?tls=true').uri, 'mongodb://h/?tls=true');
  });

  it('refuses the ssl* spellings the driver refuses, naming the tls option to write', () => {
    for (const [option, instead] of [['sslCA', 'tlsCAFile'], ['sslPEMKeyFile', 'tlsCertificateKeyFile'], ['sslCRL', 'tlsCRLFile']]) {
      assert.throws(() => parseServerSpec(`p=mongodb://h/?ssl=true&${option}=x.pem`), (err) => err instanceof UsageError
        && err.message === `server 'p': URI option ${option} is not one the Node.js driver 7 takes (the kit's and mongosh's driver): write ${instead} instead`);
      // the driver's own refusal, which the line replaces
      const { MongoClient } = require('mongodb');
      assert.throws(() => new MongoClient(`mongodb://h/?${option}=x.pem`), /is not supported/);
    }
  });
});

describe('which mongod runs where none is named', () => {
  it('is read from mongodb-memory-server when the kit runs, and the README names the same one', () => {
    const { DEFAULT_VERSION } = require('mongodb-memory-server-core/lib/util/resolveConfig');
    const { defaultMongod } = require('../../orchestrator/servers/mongod');
    const saved = process.env.MONGOMS_VERSION;
    delete process.env.MONGOMS_VERSION;
    try {
      assert.deepEqual(defaultMongod(), { version: DEFAULT_VERSION, library: `mongodb-memory-server-core ${require('mongodb-memory-server-core/package.json').version}` });
      process.env.MONGOMS_VERSION = '8.0.4';
      assert.equal(defaultMongod().version, '8.0.4', 'MONGOMS_VERSION, as the library reads it');
    } finally {
      if (saved === undefined) delete process.env.MONGOMS_VERSION; else process.env.MONGOMS_VERSION = saved;
    }
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const [major, minor] = require('mongodb-memory-server-core/package.json').version.split('.');
    assert.ok(readme.includes(`MongoDB ${DEFAULT_VERSION} with mongodb-memory-server-core ${major}.${minor}, the one package-lock.json holds`),
      `the README names mongodb-memory-server's default mongod, ${DEFAULT_VERSION}`);
  });
});

describe('the mongod stand-in is never taken for a mongod', () => {
  it('is executable, and reports mongodb-memory-server\'s default version unless told another', () => {
    fs.accessSync(STAND_IN, fs.constants.X_OK);
    const { DEFAULT_VERSION } = require('mongodb-memory-server-core/lib/util/resolveConfig');
    const env = { ...process.env };
    delete env.MONGOD_STAND_IN_VERSION;
    assert.equal(versions.parseVersionOutput(spawnSync(STAND_IN, ['--version'], { encoding: 'utf8', env }).stdout), DEFAULT_VERSION);
    assert.equal(binaryVersion(STAND_IN), process.env.MONGOD_STAND_IN_VERSION || DEFAULT_VERSION);
  });

  it('makes every measuring mongod suite skip with its reason', () => {
    assert.ok(isStandIn(STAND_IN));
    assert.match(notMongodReason(STAND_IN), /is the kit's mongod stand-in \(FerretDB\), which never stands in for mongod's numbers/);
    assert.match(notMongodReason(undefined), /set MONGOMS_SYSTEM_BINARY to a mongod/);
    assert.match(notMongodReason(path.join(STAND_IN, 'nope')), /does not exist/);
  });

  it('a server whose binary serves FerretDB is of FerretDB\'s kind in the reports, whatever the spec said', () => {
    assert.equal(serverKind({ spec: 'mongod@7.0.14:zstd', product: 'FerretDB', engine: null }), 'ferretdb');
    assert.equal(serverKind({ spec: 'mongod:zstd', product: 'MongoDB', engine: 'wiredTiger' }), 'mongod:zstd');
    assert.equal(serverKind({ spec: 'ferretdb-pg', product: 'FerretDB', engine: 'PostgreSQL 15.18' }), 'ferretdb-pg');
  });
});

describe('mongod-rs: a replica set of one member beside the standalone', () => {
  const { parseServerSpecs } = require('../../orchestrator/servers/spec');
  const { unavailableReason } = require('../helpers/servers');

  it('parses mongod-rs and every variant mongod has (version, compressor), each a replica set; mongod stays a standalone', () => {
    const cases = [
      ['mongod', { topology: 'standalone', version: null, compressor: null }],
      ['mongod-rs', { topology: 'replicaSet', version: null, compressor: null }],
      ['mongod-rs:zstd', { topology: 'replicaSet', version: null, compressor: 'zstd' }],
      ['mongod-rs@8.0.4', { topology: 'replicaSet', version: '8.0.4', compressor: null }],
      ['mongod-rs@7.0.14:none', { topology: 'replicaSet', version: '7.0.14', compressor: 'none' }],
    ];
    for (const [text, expected] of cases) {
      const spec = parseServerSpec(text);
      assert.deepEqual({ kind: spec.kind, name: spec.name, topology: spec.topology, version: spec.version, compressor: spec.compressor },
        { kind: 'mongod', name: text, ...expected }, text);
    }
    assert.throws(() => parseServerSpec('mongod-rs@4.2.1'), /asks for MongoDB 4\.2\.1: the kit needs MongoDB 4\.4 or later/);
    assert.throws(() => parseServerSpec('mongod-rs:lz4'), /unknown server spec 'mongod-rs:lz4' \(accepted: .*mongod-rs/);
    assert.throws(() => parseServerSpec('mongod-rs2'), /unknown server spec/);
  });

  it('--server mongod --server mongod-rs are two servers, of one kind for the scenarios\' declarations', () => {
    assert.deepEqual(parseServerSpecs(['mongod', 'mongod-rs', 'mongod-rs:zstd']).map((s) => [s.name, s.topology]),
      [['mongod', 'standalone'], ['mongod-rs', 'replicaSet'], ['mongod-rs:zstd', 'replicaSet']]);
    assert.equal(serverKind({ spec: 'mongod-rs', product: 'MongoDB' }), 'mongod');
    assert.equal(serverKind({ spec: 'mongod-rs@8.2.6:zstd', product: 'MongoDB' }), 'mongod:zstd');
    assert.equal(serverKind({ spec: 'mongod-rs', product: 'FerretDB', version: 'v1.24.0' }), 'ferretdb');
  });

  it('needs what mongod needs in the test suites (a real mongod in MONGOMS_SYSTEM_BINARY)', () => {
    assert.equal(unavailableReason('mongod-rs'), unavailableReason('mongod'));
    assert.equal(unavailableReason('mongod-rs:zstd'), unavailableReason('mongod'));
  });

  it('initiates the set as MongoMemoryReplSet does, and names the set in its URI', () => {
    const { replicaSetConfig, replicaSetUri, REPLICA_SET_NAME } = require('../../orchestrator/servers/replica-set');
    assert.deepEqual(replicaSetConfig('127.0.0.1:27999'), {
      _id: REPLICA_SET_NAME, members: [{ _id: 0, host: '127.0.0.1:27999' }], writeConcernMajorityJournalDefault: true, settings: { electionTimeoutMillis: 5000 },
    });
    const uri = replicaSetUri('127.0.0.1:27999');
    assert.equal(uri, `mongodb://127.0.0.1:27999/?replicaSet=${REPLICA_SET_NAME}`);
    const { MongoClient } = require('mongodb');
    const options = new MongoClient(uri).options;
    assert.equal(options.replicaSet, REPLICA_SET_NAME);
    assert.notEqual(options.directConnection, true, 'the driver discovers the set and selects its primary, as an application\'s does');
  });
});

describe('the topology, default write concern and start-up warnings in the server record', () => {
  const { topologyOf, describeDeployment, warningText } = require('../../orchestrator/servers/deployment');

  it('names the topology from the hello, as a key and in words: standalone, replica set (N members), sharded cluster, Atlas', () => {
    const { topologyText } = require('../../orchestrator/servers/deployment');
    assert.equal(topologyOf({ isWritablePrimary: true, maxWireVersion: 27 }), 'standalone');
    assert.equal(topologyOf({ isWritablePrimary: true, setName: 'classics-rs', hosts: ['127.0.0.1:27017'] }), 'replicaSet');
    assert.equal(topologyOf({ msg: 'isdbgrid' }), 'sharded');
    assert.equal(topologyText({ isWritablePrimary: true }), 'standalone');
    assert.equal(topologyText({ isWritablePrimary: true, setName: 'classics-rs', hosts: ['127.0.0.1:27017'] }), 'replica set (1 member)');
    assert.equal(topologyText({ setName: 'rs0', hosts: ['a:1', 'b:1', 'c:1'] }), 'replica set (3 members)');
    assert.equal(topologyText({ msg: 'isdbgrid' }), 'sharded cluster (mongos)');
    assert.equal(topologyText({ setName: 'atlas-x', hosts: ['a:1', 'b:1', 'c:1'] }, { tier: 'dedicated tier (M10 or larger)' }), 'Atlas dedicated tier (M10 or larger), replica set (3 members)');
  });

  it('records the default read and write concerns everywhere (a standalone\'s as the server without replication it is); a mongos\'s collections unsharded', async () => {
    const rs = require('../fixtures/cluster/replica-set-answers');
    const asked = [];
    let standalone = false;
    const admin = {
      command: async (command) => {
        asked.push(Object.keys(command)[0]);
        if (command.replSetGetConfig) throw Object.assign(new Error('not authorized on admin to execute command { replSetGetConfig: 1 }'), { code: 13 });
        if (standalone) throw rs.getDefaultRWConcernStandalone;
        return rs.getDefaultRWConcernImplicit;
      },
    };
    const hello = { isWritablePrimary: true, setName: 'classics-rs', hosts: ['127.0.0.1:1'] };
    const allocator = { GLIBC_TUNABLES: 'glibc.pthread.rseq=0', why: 'glibc 2.36' };
    const implicit = { defaultWriteConcern: { w: 'majority', wtimeout: 0, source: 'implicit' }, defaultReadConcern: { level: 'local', source: 'implicit' } };
    const oneMember = { count: 1, dataBearing: 1, arbiters: 0, hidden: null, passive: 0, delayed: null, from: 'hello (a hidden or delayed member is listed nowhere in it)' };
    assert.deepEqual(await describeDeployment(admin, hello, { allocator }), {
      topology: 'replicaSet', topologyText: 'replica set (1 member; hidden and delayed ones not counted)', replicaSet: 'classics-rs', members: oneMember, ...implicit, allocator,
    });
    assert.deepEqual(await describeDeployment(admin, { isWritablePrimary: true, msg: 'isdbgrid' }, {}), {
      topology: 'sharded', topologyText: 'sharded cluster (mongos)', ...implicit, collectionsSharded: false,
    });
    standalone = true;
    const alone = await describeDeployment(admin, { isWritablePrimary: true }, {});
    const source = 'no replication (getDefaultRWConcern: code 51300, a standalone)';
    assert.deepEqual(alone, { topology: 'standalone', topologyText: 'standalone', defaultWriteConcern: { w: 1, source }, defaultReadConcern: { level: 'local', source } });
    assert.deepEqual(asked, ['replSetGetConfig', 'getDefaultRWConcern', 'getDefaultRWConcern', 'getDefaultRWConcern']);
    standalone = false;
    const atlas = { version: '20260101.0.0', tier: 'M10 or larger', throttled: false, evidence: 'getParameter featureCompatibilityVersion answered' };
    const onAtlas = await describeDeployment(admin, { msg: 'isdbgrid' }, {}, atlas);
    assert.equal(onAtlas.topology, 'atlas');
    assert.deepEqual(onAtlas.atlas, { ...atlas, shape: 'sharded' });
    assert.equal(onAtlas.topologyText, 'Atlas M10 or larger, sharded cluster (mongos)');
  });

  it('counts a replica set\'s members with its hidden, passive and arbiter members: from replSetGetConfig, else what hello lists, saying what it cannot see', async () => {
    const { replicaSetMembers, membersText } = require('../../orchestrator/servers/deployment');
    const rs = require('../fixtures/cluster/replica-set-answers');
    const allowed = { command: async (c) => (c.replSetGetConfig ? rs.replSetGetConfigFiveMembers : null) };
    const members = await replicaSetMembers(allowed, rs.helloFiveMembers);
    assert.deepEqual(members, { count: 5, dataBearing: 4, arbiters: 1, hidden: 1, passive: 1, delayed: 0, from: 'replSetGetConfig' });
    assert.equal(membersText(members), '5 members: 1 arbiter, 1 hidden, 1 passive');
    assert.equal(rs.helloFiveMembers.hosts.length, 2, 'the hello alone lists two hosts: the old count said "2 members"');
    const refused = { command: async () => { throw Object.assign(new Error('not authorized'), { code: 13 }); } };
    const fromHello = await replicaSetMembers(refused, rs.helloFiveMembers);
    assert.deepEqual(fromHello, { count: 4, dataBearing: 3, arbiters: 1, hidden: null, passive: 1, delayed: null, from: 'hello (a hidden or delayed member is listed nowhere in it)' });
    assert.equal(membersText(fromHello), '4 members: 1 arbiter, 1 passive; hidden and delayed ones not counted');
    const { topologyText } = require('../../orchestrator/servers/deployment');
    assert.equal(topologyText(rs.helloFiveMembers, null, members), 'replica set (5 members: 1 arbiter, 1 hidden, 1 passive)');
  });

  it('records what the URI asks of every client: retryWrites, and the read preference in force, named where the URI names it', () => {
    const { clientSettings } = require('../../orchestrator/servers/deployment');
    const { MongoClient } = require('mongodb');
    const rs = require('../fixtures/cluster/replica-set-answers');
    const plain = clientSettings(new MongoClient('mongodb://rs-a:27017/?replicaSet=rs0'), rs.helloFiveMembers);
    const { uriConcerns, timedConcerns, ...settings } = plain;
    assert.deepEqual(settings, { retryWrites: true, retryableWrites: true, readPreference: { mode: 'primary', source: 'the default' } });
    assert.deepEqual(uriConcerns, { readConcernLevel: null, w: null, journal: null, wtimeoutMS: null }, 'a URI that names none: recorded as none');
    assert.equal(timedConcerns.readConcern.level, null);
    const asked = clientSettings(new MongoClient('mongodb://rs-a:27017/?replicaSet=rs0&retryWrites=false&readPreference=secondary&readPreferenceTags=dc:ny&maxStalenessSeconds=120'), rs.helloFiveMembers);
    assert.deepEqual({ ...asked, uriConcerns: undefined, timedConcerns: undefined }, { retryWrites: false, retryableWrites: false, readPreference: { mode: 'secondary', tags: [{ dc: 'ny' }], maxStalenessSeconds: 120, source: 'the URI' }, uriConcerns: undefined, timedConcerns: undefined });
    assert.equal(clientSettings(new MongoClient('mongodb://h:27017/'), { isWritablePrimary: true, logicalSessionTimeoutMinutes: 30 }).retryableWrites, false, 'a standalone takes no retryable writes');
  });

  const stores = require('../fixtures/stores/answers');

  it('puts them in a mongod\'s server record: the topology, the replica set\'s w:majority default, the allocator setting, mongod\'s startup warnings and the round trip', async () => {
    const { describeServer } = require('../../orchestrator/servers/start');
    const warning = { t: { $date: '2026-01-01T00:00:00Z' }, s: 'W', c: 'CONTROL', id: 22120, msg: 'Access control is not enabled for the database', tags: ['startupWarnings'] };
    const answers = {
      buildInfo: { version: '8.2.6' },
      hello: { isWritablePrimary: true, maxWireVersion: 27, setName: 'classics-rs', hosts: ['127.0.0.1:27999'] },
      serverStatus: { storageEngine: { name: 'wiredTiger' }, ok: 1 },
      getDefaultRWConcern: { defaultWriteConcern: { w: 'majority', wtimeout: 0 }, defaultWriteConcernSource: 'implicit', ok: 1 },
      replSetGetConfig: { config: { _id: 'classics-rs', members: [{ _id: 0, host: '127.0.0.1:27999', arbiterOnly: false, hidden: false, priority: 1, secondaryDelaySecs: 0, votes: 1 }] }, ok: 1 },
      getLog: { log: [JSON.stringify(warning)] },
      ping: { ok: 1 },
      // the journal's settings (test/fixtures/stores/answers.js names their sources)
      getCmdLineOpts: stores.mongod.getCmdLineOpts,
      getParameter: stores.mongod.getParameter,
    };
    const pings = [];
    const client = { db: () => ({ command: async (c) => { if (c.ping) pings.push(c); return answers[Object.keys(c)[0]]; } }) };
    const allocator = { GLIBC_TUNABLES: 'glibc.pthread.rseq=0', why: 'glibc 2.36 (2.35 or later) takes rseq for itself unless told not to' };
    const { roundTripMs, uriConcerns, timedConcerns, store, ...record } = await describeServer(client, { allocator, started: true });
    assert.deepEqual([store.product, store.settings.journalCommitIntervalMs, store.settings.engine, store.from], ['WiredTiger', 100, 'wiredTiger', 'getCmdLineOpts, getParameter, serverStatus']);
    assert.deepEqual(uriConcerns, { readConcernLevel: null, w: null, journal: null, wtimeoutMS: null });
    assert.ok(timedConcerns.writeConcern && timedConcerns.readConcern);
    assert.ok(roundTripMs >= 0 && roundTripMs < 50, `roundTripMs ${roundTripMs}`);
    assert.equal(pings.length, 12, 'one ping to settle the connection, then the 11 whose median is the round trip');
    assert.deepEqual(record, {
      product: 'MongoDB', version: '8.2.6', wireVersion: 27, engine: 'wiredTiger',
      topology: 'replicaSet', topologyText: 'replica set (1 member)', replicaSet: 'classics-rs',
      members: { count: 1, dataBearing: 1, arbiters: 0, hidden: 0, passive: 0, delayed: 0, from: 'replSetGetConfig' },
      defaultWriteConcern: { w: 'majority', wtimeout: 0, source: 'implicit' },
      allocator, retryWrites: true, retryableWrites: false, readPreference: { mode: 'primary', source: 'the default' }, warnings: ['Access control is not enabled for the database'],
    });
    answers.hello = { isWritablePrimary: true, maxWireVersion: 27 };
    answers.getLog = { log: [] };
    const { roundTripMs: again, uriConcerns: none, timedConcerns: named, store: journal, ...standalone } = await describeServer(client, { started: true }, { pings: 3 });
    assert.equal(journal.settings.journalCommitIntervalMs, 100);
    assert.ok(none && named);
    assert.ok(again >= 0);
    assert.equal(pings.length, 12 + 11, 'never fewer than 10 pings (and the settling one)');
    assert.deepEqual(standalone, {
      product: 'MongoDB', version: '8.2.6', wireVersion: 27, engine: 'wiredTiger', topology: 'standalone', topologyText: 'standalone',
      defaultWriteConcern: { w: 'majority', wtimeout: 0, source: 'implicit' }, retryWrites: true, retryableWrites: false, readPreference: { mode: 'primary', source: 'the default' },
    });
  });

  it('knows Atlas and its tier as the probe can know it: a shared one refused in one line, a dedicated one measured, an unknown answer said in one line', async () => {
    const { describeAtlas, throttledTierLine, unknownTierLine, isAtlasUri, THROTTLED, DEDICATED } = require('../../orchestrator/servers/atlas');
    const answers = require('../fixtures/cluster/atlas-answers');
    const probing = (refusal) => ({
      command: async (c) => {
        if (c.atlasVersion) return answers.atlasVersion;
        throw refusal;
      },
    });
    const shared = await describeAtlas(probing(answers.sharedTierRefusal), 'mongodb+srv://c0.abcde.mongodb.net/');
    assert.deepEqual({ tier: shared.tier, throttled: shared.throttled }, { tier: THROTTLED, throttled: true });
    assert.equal(THROTTLED, 'shared tier (M0 or Flex; the retired M2 and M5 alike)', 'the probe cannot tell the shared tiers apart, and does not name one');
    assert.match(throttledTierLine('atlas', shared), /^server 'atlas' is on an Atlas shared tier \(M0 or Flex; the retired M2 and M5 alike\) \(getParameter: getParameter is not allowed.*\): .* run the kit on an M10 or larger cluster$/);
    assert.equal(unknownTierLine('atlas', shared), null);
    const dedicated = await describeAtlas(probing(answers.dedicatedUnauthorized), 'mongodb://h:27017');
    assert.deepEqual({ tier: dedicated.tier, throttled: dedicated.throttled, version: dedicated.version }, { tier: DEDICATED, throttled: false, version: answers.atlasVersion.atlasVersion });
    assert.equal(throttledTierLine('atlas', dedicated), null);
    assert.equal(unknownTierLine('atlas', dedicated), null);
    const unknown = await describeAtlas(probing(answers.neither), 'mongodb+srv://c0.abcde.mongodb.net/');
    assert.deepEqual({ tier: unknown.tier, throttled: unknown.throttled }, { tier: null, throttled: null });
    assert.equal(throttledTierLine('atlas', unknown), null, 'measured, not refused');
    assert.match(unknownTierLine('atlas', unknown), /^server 'atlas' is on Atlas but did not say its tier \(getParameter: connection 3 to 203\.0\.113\.7:27017 closed\): it is measured as a dedicated cluster; were it a shared tier \(M0, Flex\), every figure would be the ration's, not the server's$/);
    assert.equal(unknownTierLine('local', null), null, 'not Atlas: nothing to say');
    const notAtlas = await describeAtlas({ command: async () => { throw Object.assign(new Error('no such command: \'atlasVersion\''), { code: 59 }); } }, 'mongodb://127.0.0.1:27017/');
    assert.equal(notAtlas, null);
    assert.ok(isAtlasUri('mongodb+srv://user:pw@cluster0.abcde.mongodb.net/?retryWrites=true'));
    assert.ok(isAtlasUri('mongodb://ac-x-shard-00-00.abcde.mongodb.net:27017,ac-x-shard-00-01.abcde.mongodb.net:27017/'));
    assert.ok(!isAtlasUri('mongodb://mongodb.net.example.com:27017/'));
  });

  it('writes each of mongod\'s startup warnings as one line with its attributes', () => {
    const line = JSON.stringify({
      t: { $date: '2026-01-01T00:00:00.000+00:00' }, s: 'W', c: 'CONTROL', id: 8640302, ctx: 'initandlisten',
      msg: 'We suggest setting the contents of sysfsFile to 0.', attr: { sysfsFile: '/proc/sys/vm/overcommit_memory', currentValue: 1 }, tags: ['startupWarnings'],
    });
    assert.equal(warningText(line), 'We suggest setting the contents of sysfsFile to 0. (sysfsFile: /proc/sys/vm/overcommit_memory, currentValue: 1)');
    assert.equal(warningText('not json'), 'not json');
  });
});

describe('mongod 8 started as MongoDB recommends for its allocator (GLIBC_TUNABLES)', () => {
  const { allocatorEnvironment, RSEQ_OFF } = require('../../orchestrator/servers/deployment');

  it('sets glibc.pthread.rseq=0 for mongod 8 on glibc 2.35 and later, in mongod\'s environment only', () => {
    const env = { PATH: '/bin' };
    for (const glibc of ['2.35', '2.36', '2.41', '3.0']) {
      const decided = allocatorEnvironment({ glibc, mongodVersion: '8.2.6', env });
      assert.equal(decided.env.GLIBC_TUNABLES, RSEQ_OFF, glibc);
      assert.equal(decided.env.PATH, '/bin', 'the rest of the environment as it is');
      assert.equal(env.GLIBC_TUNABLES, undefined, 'the kit\'s own environment untouched');
    }
    assert.equal(RSEQ_OFF, 'glibc.pthread.rseq=0');
  });

  it('leaves the environment alone for older glibc, no glibc, mongod before 8, or a user\'s own rseq setting; adds to other tunables', () => {
    assert.equal(allocatorEnvironment({ glibc: '2.34', mongodVersion: '8.0.4', env: {} }).env, null);
    assert.equal(allocatorEnvironment({ glibc: '2.31', mongodVersion: '8.0.4', env: {} }).env, null);
    assert.equal(allocatorEnvironment({ glibc: null, mongodVersion: '8.0.4', env: {} }).env, null);
    assert.equal(allocatorEnvironment({ glibc: '2.36', mongodVersion: '7.0.14', env: {} }).env, null);
    const own = allocatorEnvironment({ glibc: '2.36', mongodVersion: '8.2.6', env: { GLIBC_TUNABLES: 'glibc.pthread.rseq=1' } });
    assert.equal(own.env, null);
    assert.equal(own.tunables, 'glibc.pthread.rseq=1');
    assert.equal(allocatorEnvironment({ glibc: '2.36', mongodVersion: '8.2.6', env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } }).env.GLIBC_TUNABLES,
      'glibc.malloc.arena_max=2:glibc.pthread.rseq=0');
  });

  it('hands the environment to mongodb-memory-server\'s spawn (MongoInstance\'s spawn options)', () => {
    const { MongoInstance } = require('mongodb-memory-server-core');
    const instance = new MongoInstance({ instance: { port: 1, dbPath: '/nonexistent' }, spawn: { env: { GLIBC_TUNABLES: RSEQ_OFF } } });
    assert.equal(instance.spawnOpts.env.GLIBC_TUNABLES, RSEQ_OFF);
  });
});

describe('what a standalone does to a pushed document, in the embedded-comments report', () => {
  const { topologyNoteFor } = require('../../orchestrator/report/scenario-section');
  const { withDeployment } = require('../../orchestrator/analysis/run-model');
  const { discoverScenarios } = require('../../orchestrator/scenarios');
  const { resolveConfig } = require('../../orchestrator/config');
  const embedded = discoverScenarios(resolveConfig().shellDir).find((s) => s.name === 'embedded-comments');

  it('says on a standalone mongod (any compressor) that its large-blog cells include whole-document journaling; not on a replica set, nor on FerretDB', () => {
    const standalone = topologyNoteFor(embedded, withDeployment({ spec: 'mongod', product: 'MongoDB', topology: 'standalone' }));
    assert.match(standalone, /journals the whole blog, about 1 MB and 10 MB/);
    assert.equal(topologyNoteFor(embedded, withDeployment({ spec: 'mongod:zstd', product: 'MongoDB', topology: 'standalone' })), standalone);
    assert.equal(topologyNoteFor(embedded, withDeployment({ spec: 'mongod-rs', product: 'MongoDB', topology: 'replica set (1 member)' })), '', 'a record written before the keys');
    assert.equal(topologyNoteFor(embedded, withDeployment({ spec: 'mongod-rs', product: 'MongoDB', topology: 'replicaSet', topologyText: 'replica set (1 member)' })), '');
    assert.equal(topologyNoteFor(embedded, withDeployment({ spec: 'prod=mongodb://h', product: 'MongoDB', topology: 'sharded' })), '');
    assert.equal(topologyNoteFor(embedded, withDeployment({ spec: 'ferretdb2', product: 'FerretDB', version: 'v2.7.0', topology: 'standalone' })), '');
  });

  it('is data the scenario declares (servers.KIND.topologies), which the contract checks', () => {
    const os = require('node:os');
    const { scenarioProblems } = require('../../orchestrator/scenarios');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-topologies-'));
    try {
      const dir = path.join(root, 'embedded-comments');
      fs.cpSync(embedded.dir, dir, { recursive: true });
      assert.deepEqual(scenarioProblems(dir), []);
      const file = path.join(dir, 'scenario.json');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"standalone": "On a standalone', '"standalon": "On a standalone'));
      assert.match(scenarioProblems(dir).join('\n'), /servers\.mongod\.topologies\.standalon: not a topology \(standalone, replicaSet, sharded, atlas\)/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the test bed: transparent huge pages and glibc, beside mongod\'s own startup warnings', () => {
  const os = require('node:os');
  const { memorySettings, describeTestBed } = require('../../orchestrator/run/test-bed');

  it('reads the setting each sysfs file selects, and null where the files are not there', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-thp-'));
    try {
      fs.writeFileSync(path.join(root, 'enabled'), 'always [madvise] never\n');
      fs.writeFileSync(path.join(root, 'defrag'), 'always defer [defer+madvise] madvise never\n');
      assert.deepEqual(memorySettings(root).transparentHugePages, { enabled: 'madvise', defrag: 'defer+madvise' });
      assert.deepEqual(memorySettings(path.join(root, 'none')).transparentHugePages, { enabled: null, defrag: null });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    const machine = describeTestBed().machine;
    assert.ok('transparentHugePages' in machine && 'glibc' in machine, JSON.stringify(machine));
  });
});
