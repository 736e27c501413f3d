'use strict';
// mongosh's Database (shell-api database.js) over the driver's Db. A database is a Proxy, as in
// mongosh: db.<name> is the collection <name>, unless <name> is a method of mongosh's Database,
// which is either here or a stub that stops the script (api/unsupported.js). Commands go through
// runCommand with mongosh's base options and its check: a reply with ok: 0 that the driver did
// not already throw for becomes MongoshCommandFailed.
const { Double } = require('mongodb');
const { SHELL_API_TYPE, AS_PRINTABLE, shellCall, addHiddenDataProperty } = require('./protocol');
const { assertArgsDefinedType, MongoshInvalidInputError, MongoshCommandFailed, MongoshRuntimeError, CommonErrors } = require('./errors');
const { isValidCollectionName, assertValidCollectionName, driverOptions } = require('./names');
const { AggregationCursor, validateExplainableVerbosity } = require('./cursor');
const { Collection } = require('./collection');
const { stubMissingMethods } = require('./unsupported');

const AGGREGATE_BACKGROUND_HELP = 'the background option is not supported by the aggregate method and will be ignored, use runCommand to use { background: true } with Atlas Data Federation';

function isDoubleConvertible(value) {
  return (typeof value === 'number' && Number.isInteger(value)) || value?._bsontype === 'Int32';
}

/** mongosh's adjustRunCommand: integer rates and sizes some commands expect as doubles. */
function adjustRunCommand(cmd) {
  if (cmd.replSetResizeOplog !== undefined) {
    if ('size' in cmd && isDoubleConvertible(cmd.size)) return adjustRunCommand({ ...cmd, size: new Double(+cmd.size) });
    if ('minRetentionHours' in cmd && isDoubleConvertible(cmd.minRetentionHours)) {
      return adjustRunCommand({ ...cmd, minRetentionHours: new Double(+cmd.minRetentionHours) });
    }
  }
  if (cmd.profile !== undefined && 'sampleRate' in cmd && isDoubleConvertible(cmd.sampleRate)) {
    return adjustRunCommand({ ...cmd, sampleRate: new Double(+cmd.sampleRate) });
  }
  if (cmd.setParameter !== undefined && cmd.mirrorReads !== undefined && 'samplingRate' in cmd.mirrorReads && isDoubleConvertible(cmd.mirrorReads.samplingRate)) {
    return adjustRunCommand({ ...cmd, mirrorReads: { ...cmd.mirrorReads, samplingRate: new Double(+cmd.mirrorReads.samplingRate) } });
  }
  if ('configureQueryAnalyzer' in cmd && isDoubleConvertible(cmd.sampleRate)) {
    return adjustRunCommand({ ...cmd, sampleRate: new Double(+cmd.sampleRate) });
  }
  return cmd;
}

class Database {
  constructor(mongo, name) {
    this._mongo = mongo;
    this._name = name;
    this._driverDb = null;
    const collections = Object.create(null);
    this._collections = collections;
    const proxy = new Proxy(this, {
      get(target, prop) {
        const value = target[prop];
        if (value !== undefined || prop in target) return value;
        if (typeof prop !== 'string' || prop.startsWith('_') || !isValidCollectionName(prop)) return undefined;
        return collections[prop] ?? (collections[prop] = new Collection(mongo, proxy, prop));
      },
    });
    return proxy;
  }

  /** The driver's Db, made once per database name and connection (as mongosh caches it). */
  _db() {
    return this._driverDb ??= this._mongo._client().db(this._name);
  }

  /** runCommandWithCheck: the driver's command with mongosh's base options. */
  async _runCommand(cmd, options = {}) {
    const result = await this._db().command(adjustRunCommand(cmd), driverOptions(options));
    if (result.ok === 0) throw new MongoshCommandFailed(JSON.stringify(cmd));
    return result;
  }
  _runAdminCommand(cmd, options = {}) {
    return this._mongo._getDb('admin')._runCommand(cmd, options);
  }
  _listCollections(filter, options) {
    return this._db().listCollections(filter, driverOptions(options)).toArray();
  }

  // ---- names --------------------------------------------------------------------------------
  getMongo() { return this._mongo; }
  getName() { return this._name; }
  [AS_PRINTABLE]() { return this._name; }

  getSiblingDB(db) {
    assertArgsDefinedType([db], ['string'], 'Database.getSiblingDB');
    return this._mongo._getDb(db);
  }

  getCollection(coll) {
    assertArgsDefinedType([coll], ['string'], 'Database.getColl');
    assertValidCollectionName(coll);
    return this._collections[coll] ??= new Collection(this._mongo, this, coll);
  }

  getCollectionNames() {
    return shellCall(this._listCollections({}, { nameOnly: true }).then((infos) => infos.map((c) => c.name)));
  }
  getCollectionInfos(filter = {}, options = {}) {
    return shellCall(this._listCollections(filter, options));
  }

  // ---- commands -----------------------------------------------------------------------------
  runCommand(cmd, options) {
    assertArgsDefinedType([cmd], [['string', 'object']], 'Database.runCommand');
    if (typeof cmd === 'string') cmd = { [cmd]: 1 };
    return shellCall(this._runCommand(cmd, options).catch((error) => {
      if (error.codeName === 'NotPrimaryNoSecondaryOk') {
        error.message = 'not primary - consider passing the readPreference option e.g. db.runCommand({ command }, { readPreference: "secondaryPreferred" })';
      }
      throw error;
    }));
  }

  adminCommand(cmd) {
    assertArgsDefinedType([cmd], [['string', 'object']], 'Database.adminCommand');
    if (typeof cmd === 'string') cmd = { [cmd]: 1 };
    return shellCall(this._runAdminCommand(cmd, {}));
  }

  aggregate(...args) {
    return shellCall(this._aggregate(args));
  }
  async _aggregate(args) {
    const [pipeline, options] = args.length === 0 || Array.isArray(args[0]) ? [args[0] || [], args[1] || {}] : [args, {}];
    if ('background' in options) await this._mongo._shell.printWarning(AGGREGATE_BACKGROUND_HELP);
    assertArgsDefinedType([pipeline], [true], 'Database.aggregate');
    const aggOptions = { ...options };
    let explain;
    if ('explain' in aggOptions) {
      explain = validateExplainableVerbosity(aggOptions.explain);
      delete aggOptions.explain;
    }
    const cursor = new AggregationCursor(this._mongo, this._db().aggregate(pipeline, driverOptions(aggOptions)));
    if (explain) return cursor._explain(explain);
    if (pipeline.some((stage) => Object.keys(stage).some((n) => n === '$merge' || n === '$out'))) await cursor._cursor.hasNext();
    return cursor;
  }

  dropDatabase(writeConcern) {
    return shellCall(this._db().dropDatabase(driverOptions({ writeConcern })).then((dropped) => (dropped ? { ok: 1, dropped: this._name } : { ok: 0 })));
  }

  createCollection(name, options = {}) {
    assertArgsDefinedType([name], ['string'], 'Database.createCollection');
    return shellCall(this._db().createCollection(name, driverOptions(options)).then(() => ({ ok: 1 })));
  }

  createView(name, source, pipeline, options = {}) {
    assertArgsDefinedType([name, source, pipeline], ['string', 'string', true], 'Database.createView');
    const ccOptions = { viewOn: source, pipeline };
    if (options.collation) ccOptions.collation = options.collation;
    return shellCall(this._db().createCollection(name, driverOptions(ccOptions)).then(() => ({ ok: 1 })));
  }

  version() {
    return shellCall(this._runAdminCommand({ buildInfo: 1 }).then((info) => {
      if (!info || info.version === undefined) {
        throw new MongoshRuntimeError(`Error running command serverBuildInfo ${info ? info.errmsg || '' : ''}`, CommonErrors.CommandFailed);
      }
      return info.version;
    }));
  }
  serverBuildInfo() { return shellCall(this._runAdminCommand({ buildInfo: 1 })); }
  serverStatus(opts = {}) { return shellCall(this._runAdminCommand({ serverStatus: 1, ...opts })); }
  hostInfo() { return shellCall(this._runAdminCommand({ hostInfo: 1 })); }
  serverCmdLineOpts() { return shellCall(this._runAdminCommand({ getCmdLineOpts: 1 })); }
  killOp(opId) { return shellCall(this._runAdminCommand({ killOp: 1, op: opId })); }

  isMaster() {
    return shellCall(this._isMaster());
  }
  async _isMaster() {
    const result = await this._runCommand({ isMaster: 1 });
    result.isWritablePrimary = result.ismaster;
    return result;
  }
  hello() {
    return shellCall(this._hello());
  }
  async _hello() {
    try {
      return await this._runCommand({ hello: 1 });
    } catch (err) {
      if (err?.codeName === 'CommandNotFound') {
        const result = await this._isMaster();
        delete result.ismaster;
        return result;
      }
      throw err;
    }
  }

  stats(scaleOrOptions = 1) {
    assertArgsDefinedType([scaleOrOptions], [['number', 'object']], 'Database.stats');
    if (typeof scaleOrOptions === 'number') scaleOrOptions = { scale: scaleOrOptions };
    return shellCall(this._runCommand({ dbStats: 1, scale: 1, ...scaleOrOptions }));
  }

  getProfilingStatus() { return shellCall(this._runCommand({ profile: -1 })); }
  setProfilingLevel(level, opts = {}) {
    assertArgsDefinedType([level], ['number'], 'Database.setProfilingLevel');
    if (level < 0 || level > 2) throw new MongoshInvalidInputError(`Input level ${level} is out of range [0..2]`, CommonErrors.InvalidArgument);
    if (typeof opts === 'number') opts = { slowms: opts };
    return shellCall(this._runCommand({ profile: level, ...opts }));
  }
}

addHiddenDataProperty(Database.prototype, SHELL_API_TYPE, 'Database');
stubMissingMethods(Database.prototype, 'Database');

module.exports = { Database, adjustRunCommand };
