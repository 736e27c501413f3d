'use strict';
// mongosh's Collection (shell-api collection.js) over the driver's Collection. Each method does
// what mongosh's does on the wire and returns what mongosh returns: mongosh's base options on
// every call (serializeFunctions, promoteLongs: false) and nothing else, so no write concern is
// added and a { w: 0 } write still goes out fire-and-forget; insertOne copies the document (the
// driver adds _id to what it is given); findOne is find().limit(1).tryNext(); drop() is false on
// a missing collection; results are mongosh's result objects. Left out on purpose: the API-call
// telemetry, the interrupt race and the listCollections that mongosh's drop() sends to look for
// client-side encryption settings. A collection is a Proxy, as in mongosh, so db.blog.comments
// is the collection "blog.comments"; the names of mongosh's methods this class lacks are stubs
// (api/unsupported.js), never sub-collections.
const { SHELL_API_TYPE, AS_PRINTABLE, shellCall, shellSocketCall, shellValue, addHiddenDataProperty } = require('./protocol');
const { assertArgsDefinedType, MongoshInvalidInputError, MongoshInternalError, MongoshRuntimeError, CommonErrors } = require('./errors');
const { isValidCollectionName, driverOptions } = require('./names');
const {
  InsertOneResult, InsertManyResult, BulkWriteResult, markAsExplainOutput, deleteResult, updateResult,
} = require('./results');
const { Cursor, AggregationCursor, ExplainableCursor, validateExplainableVerbosity } = require('./cursor');
const { collectionStats } = require('./collection-stats');
const { stubMissingMethods } = require('./unsupported');

const AGGREGATE_BACKGROUND_HELP = 'the background option is not supported by the aggregate method and will be ignored, use runCommand to use { background: true } with Atlas Data Federation';

function adaptAggregateOptions(options = {}) {
  const aggOptions = { ...options };
  let explain;
  if ('explain' in aggOptions) {
    explain = validateExplainableVerbosity(aggOptions.explain);
    delete aggOptions.explain;
  }
  return { aggOptions, explain };
}

/** aggregate(pipeline, options) or aggregate(stage, stage, ...), as mongosh reads its arguments. */
function aggregateArguments(args) {
  if (args.length === 0 || Array.isArray(args[0])) return { pipeline: args[0] || [], options: args[1] || {} };
  return { pipeline: args || [], options: {} };
}

function shouldRunAggregationImmediately(pipeline) {
  return pipeline.some((stage) => Object.keys(stage).some((name) => name === '$merge' || name === '$out'));
}

function processFindAndModifyOptions(options) {
  options = { ...options };
  if ('returnDocument' in options) {
    if (options.returnDocument !== 'before' && options.returnDocument !== 'after') {
      throw new MongoshInvalidInputError("returnDocument needs to be either 'before' or 'after'", CommonErrors.InvalidArgument);
    }
    delete options.returnNewDocument;
    delete options.returnOriginal;
    return options;
  }
  for (const [key, after] of [['returnOriginal', (v) => !v], ['returnNewDocument', (v) => !!v], ['new', (v) => !!v]]) {
    if (key in options) {
      options.returnDocument = after(options[key]) ? 'after' : 'before';
      delete options.returnOriginal;
      delete options.returnNewDocument;
      delete options.new;
      return options;
    }
  }
  options.returnDocument = 'before';
  return options;
}

function processRemoveOptions(options) {
  if (typeof options === 'boolean') return { justOne: options };
  return { justOne: false, ...options };
}

/** mongosh's "Missing required argument at position 0 (Collection.insertOne)". */
function missingArgument(method) {
  return new MongoshInvalidInputError(`Missing required argument at position 0 (${method})`, CommonErrors.InvalidArgument);
}

/**
 * A call the lean path took (its promise), else the driver's: as a shell call, the lean path's
 * answering socket event standing for the event loop's turn (protocol.js).
 */
function viaLean(leanPromise, driverCall, mapResult) {
  return leanPromise === undefined ? shellCall(driverCall(), mapResult) : shellSocketCall(leanPromise, mapResult);
}

function insertOneResult(r) {
  return new InsertOneResult(!!r.acknowledged, r.insertedId);
}

/** The service provider's find(): base options, and mongosh's names for two cursor flags. */
function driverFind(coll, query, options) {
  const findOptions = driverOptions(options);
  if ('allowPartialResults' in findOptions) findOptions.partial = findOptions.allowPartialResults;
  if ('noCursorTimeout' in findOptions) findOptions.timeout = findOptions.noCursorTimeout;
  return coll.find(query, findOptions);
}

class Collection {
  constructor(mongo, database, name) {
    this._mongo = mongo;
    this._database = database;
    this._name = name;
    this._driverCollection = null;
    const proxy = new Proxy(this, {
      get(target, prop) {
        const value = target[prop];
        if (value !== undefined || prop in target) return value;
        if (typeof prop !== 'string' || prop.startsWith('_') || !isValidCollectionName(prop)) return undefined;
        return database.getCollection(`${name}.${prop}`);
      },
    });
    return proxy;
  }

  /** The driver's collection, made once (mongosh asks its Db for a new one on every call). */
  _coll() {
    return this._driverCollection ?? (this._driverCollection = this._database._db().collection(this._name));
  }

  _fullName() { return `${this._database._name}.${this._name}`; }
  _shell() { return this._mongo._shell; }

  // ---- names --------------------------------------------------------------------------------
  getName() { return this._name; }
  getFullName() { return this._fullName(); }
  getDB() { return this._database; }
  getMongo() { return this._mongo; }
  [AS_PRINTABLE]() { return this._fullName(); }

  /** The connection's lean path (api/lean.js): it takes a call, or returns undefined and the driver does. */
  _lean() { return this._mongo._leanPath; }

  // ---- writes -------------------------------------------------------------------------------
  insertOne(doc, options = {}) {
    if (doc === undefined) throw missingArgument('Collection.insertOne');
    const copy = { ...doc };
    const coll = this._coll();
    const driverCall = () => coll.insertOne(copy, driverOptions(options));
    return viaLean(this._lean().insertOne('insertOne', coll, copy, options, driverCall), driverCall, insertOneResult);
  }

  insertMany(docs, options = {}) {
    assertArgsDefinedType([docs], [true], 'Collection.insertMany');
    this._lean().declined('insertMany', 'a bulk write');
    return shellCall(this._insertMany(Array.isArray(docs) ? docs.map((doc) => ({ ...doc })) : docs, options));
  }
  async _insertMany(docs, options) {
    const r = await this._coll().insertMany(docs, driverOptions(options));
    return new InsertManyResult(!!r.acknowledged, r.insertedIds);
  }

  insert(docs, options = {}) {
    return shellCall(this._deprecated('Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.', () => {
      assertArgsDefinedType([docs], [true], 'Collection.insert');
      this._lean().declined('insert', 'a bulk write (insertMany)');
      const copies = Array.isArray(docs) ? docs.map((doc) => ({ ...doc })) : [{ ...docs }];
      return this._insertMany(copies, options);
    }));
  }

  updateOne(filter, update, options = {}) {
    if (filter === undefined) throw missingArgument('Collection.updateOne');
    const driverCall = this._driverUpdate('updateOne', filter, update, options);
    return viaLean(this._leanUpdate('updateOne', 'updateOne', filter, update, options, driverCall), driverCall, options.explain ? markAsExplainOutput : updateResult);
  }
  updateMany(filter, update, options = {}) {
    if (filter === undefined) throw missingArgument('Collection.updateMany');
    const driverCall = this._driverUpdate('updateMany', filter, update, options);
    return viaLean(this._leanUpdate('updateMany', 'updateMany', filter, update, options, driverCall), driverCall, options.explain ? markAsExplainOutput : updateResult);
  }
  replaceOne(filter, replacement, options = {}) {
    if (filter === undefined) throw missingArgument('Collection.replaceOne');
    const coll = this._coll();
    const driverCall = () => coll.replaceOne(filter, replacement, driverOptions(options));
    return viaLean(this._lean().replaceOne('replaceOne', coll, filter, replacement, options, driverCall), driverCall, updateResult);
  }
  /** The driver's updateOne or updateMany (method), as a function to call. */
  _driverUpdate(method, filter, update, options) {
    const coll = this._coll();
    return () => coll[method](filter, update, driverOptions(options));
  }
  /** The lean path's promise of updateOne or updateMany (method) as the script's call (called) names it, or undefined. */
  _leanUpdate(called, method, filter, update, options, driverCall) {
    return this._lean().update(called, this._coll(), filter, update, options, method === 'updateMany', driverCall);
  }

  update(filter, update, options = {}) {
    return shellCall(this._deprecated('Collection.update() is deprecated. Use updateOne, updateMany, or bulkWrite.', () => {
      assertArgsDefinedType([filter, update], [true, true], 'Collection.update');
      const method = options.multi ? 'updateMany' : 'updateOne';
      const driverCall = this._driverUpdate(method, filter, update, options);
      return (this._leanUpdate('update', method, filter, update, options, driverCall) ?? driverCall())
        .then(options.explain ? markAsExplainOutput : updateResult);
    }));
  }

  deleteOne(filter, options = {}) {
    if (filter === undefined) throw missingArgument('Collection.deleteOne');
    const driverCall = this._driverDelete('deleteOne', filter, options);
    return viaLean(this._leanDelete('deleteOne', 'deleteOne', filter, options, driverCall), driverCall, options.explain ? markAsExplainOutput : deleteResult);
  }
  deleteMany(filter, options = {}) {
    if (filter === undefined) throw missingArgument('Collection.deleteMany');
    const driverCall = this._driverDelete('deleteMany', filter, options);
    return viaLean(this._leanDelete('deleteMany', 'deleteMany', filter, options, driverCall), driverCall, options.explain ? markAsExplainOutput : deleteResult);
  }
  /** The driver's deleteOne or deleteMany (method), as a function to call. */
  _driverDelete(method, filter, options) {
    const coll = this._coll();
    return () => coll[method](filter, driverOptions(options));
  }
  /** The lean path's promise of deleteOne or deleteMany (method) as the script's call (called) names it, or undefined. */
  _leanDelete(called, method, filter, options, driverCall) {
    return this._lean().delete(called, this._coll(), filter, options, method === 'deleteOne' ? 1 : 0, driverCall);
  }

  remove(query, options = {}) {
    return shellCall(this._deprecated('Collection.remove() is deprecated. Use deleteOne, deleteMany, findOneAndDelete, or bulkWrite.', () => {
      assertArgsDefinedType([query], [true], 'Collection.remove');
      const removeOptions = processRemoveOptions(options);
      const method = removeOptions.justOne ? 'deleteOne' : 'deleteMany';
      delete removeOptions.justOne;
      const driverCall = this._driverDelete(method, query, removeOptions);
      return (this._leanDelete('remove', method, query, removeOptions, driverCall) ?? driverCall())
        .then(removeOptions.explain ? markAsExplainOutput : deleteResult);
    }));
  }

  bulkWrite(operations, options = {}) {
    this._lean().declined('bulkWrite', 'a bulk write');
    return shellCall(this._bulkWrite(operations, options));
  }
  async _bulkWrite(operations, options) {
    const r = await this._coll().bulkWrite(operations, driverOptions(options));
    return new BulkWriteResult(!!r.ok, r.insertedCount, r.insertedIds, r.matchedCount, r.modifiedCount, r.deletedCount, r.upsertedCount, r.upsertedIds);
  }

  findOneAndDelete(filter, options = {}) {
    assertArgsDefinedType([filter], [true], 'Collection.findOneAndDelete');
    return shellCall(this._findAndModify('findOneAndDelete', [filter], options, options));
  }
  findOneAndReplace(filter, replacement, options = {}) {
    assertArgsDefinedType([filter], [true], 'Collection.findOneAndReplace');
    return shellCall(this._findAndModify('findOneAndReplace', [filter, replacement], processFindAndModifyOptions(options), options));
  }
  findOneAndUpdate(filter, update, options = {}) {
    assertArgsDefinedType([filter], [true], 'Collection.findOneAndUpdate');
    return shellCall(this._findAndModify('findOneAndUpdate', [filter, update], processFindAndModifyOptions(options), options));
  }
  async _findAndModify(method, args, processed, original) {
    const r = await this._coll()[method](...args, { includeResultMetadata: true, ...driverOptions(processed) });
    if (original.explain && r) return markAsExplainOutput(r);
    return r?.value;
  }

  findAndModify(options) {
    assertArgsDefinedType([options], [true], 'Collection.findAndModify');
    if (options.query === undefined) throw new MongoshInvalidInputError('Missing required property: "query"', CommonErrors.InvalidArgument);
    const reduced = { ...options };
    if (reduced.projection !== undefined && reduced.fields !== undefined) {
      throw new MongoshInvalidInputError('Cannot specify both .fields and .projection for findAndModify()', CommonErrors.InvalidArgument);
    }
    if (reduced.projection === undefined && reduced.fields !== undefined) reduced.projection = reduced.fields;
    delete reduced.query;
    delete reduced.update;
    delete reduced.fields;
    if (options.remove) return this.findOneAndDelete(options.query, reduced);
    const { update } = options;
    if (!update) throw new MongoshInvalidInputError('Must specify options.update or options.remove', CommonErrors.InvalidArgument);
    if (Array.isArray(update) || Object.keys(update).some((key) => key.startsWith('$'))) return this.findOneAndUpdate(options.query, update, reduced);
    return this.findOneAndReplace(options.query, update, reduced);
  }

  // ---- reads --------------------------------------------------------------------------------
  _driverFind(query, options) {
    return driverFind(this._coll(), query, options);
  }

  find(query, projection, options = {}) {
    if (projection) options.projection = projection;
    this._lean().declined('find', 'a cursor');
    const cursor = new Cursor(this._mongo, this._driverFind(query, options));
    return options.explain ? cursor.explain(options.explain) : shellValue(cursor);
  }

  findOne(query = {}, projection, options = {}) {
    if (projection) options.projection = projection;
    const coll = this._coll();
    const driverCall = () => driverFind(coll, query, options).limit(1).tryNext();
    return viaLean(this._lean().findOne('findOne', coll, query, options, driverCall), driverCall);
  }
  _findOne(query, options = {}) {
    return driverFind(this._coll(), query, options).limit(1).tryNext();
  }

  aggregate(...args) {
    return shellCall(this._aggregate(args));
  }
  async _aggregate(args) {
    const { pipeline, options } = aggregateArguments(args);
    if ('background' in options) await this._shell().printWarning(AGGREGATE_BACKGROUND_HELP);
    const { aggOptions, explain } = adaptAggregateOptions(options);
    const cursor = new AggregationCursor(this._mongo, this._coll().aggregate(pipeline, driverOptions(aggOptions)));
    if (explain) return cursor._explain(explain);
    if (shouldRunAggregationImmediately(pipeline)) await cursor._cursor.hasNext();
    return cursor;
  }
  /** Every document of an aggregation, for the kit's own helpers (stats, latencyStats). */
  _aggregateToArray(pipeline) {
    return this._coll().aggregate(pipeline, driverOptions({})).toArray();
  }

  countDocuments(query, options = {}) {
    return shellCall(this._coll().countDocuments(query, driverOptions(options)));
  }
  estimatedDocumentCount(options = {}) {
    return shellCall(this._coll().estimatedDocumentCount(driverOptions(options)));
  }
  count(query = {}, options = {}) {
    return shellCall(this._deprecated('Collection.count() is deprecated. Use countDocuments or estimatedDocumentCount.',
      () => this._coll().count(query, driverOptions(options))));
  }
  distinct(field, query, options = {}) {
    return shellCall(this._distinct(field, query, options));
  }
  async _distinct(field, query, options) {
    const r = await this._coll().distinct(field, query ?? {}, driverOptions(options));
    return 'explain' in options ? markAsExplainOutput(r) : r;
  }

  // ---- indexes ------------------------------------------------------------------------------
  createIndexes(keyPatterns, options = {}, commitQuorum) {
    return shellCall(this._createIndexes(keyPatterns, options, commitQuorum));
  }
  async _createIndexes(keyPatterns, options = {}, commitQuorum) {
    assertArgsDefinedType([keyPatterns], [true], 'Collection.createIndexes');
    if (typeof options !== 'object' || Array.isArray(options)) {
      throw new MongoshInvalidInputError('The "options" argument must be an object.', CommonErrors.InvalidArgument);
    }
    const specs = keyPatterns.map((pattern) => ({ ...options, key: pattern }));
    const createIndexesOptions = { ...options };
    if (commitQuorum !== undefined) createIndexesOptions.commitQuorum = commitQuorum;
    return this._coll().createIndexes(specs, driverOptions(createIndexesOptions));
  }
  createIndex(keys, options = {}, commitQuorum) {
    assertArgsDefinedType([keys], [true], 'Collection.createIndex');
    if (typeof options !== 'object' || Array.isArray(options)) {
      throw new MongoshInvalidInputError('The "options" argument must be an object.', CommonErrors.InvalidArgument);
    }
    return shellCall(this._createIndexes([keys], options, commitQuorum).then((names) => {
      if (!Array.isArray(names) || names.length !== 1) {
        throw new MongoshInternalError(`Expected createIndexes() to return array of length 1, saw ${names.toString()}`);
      }
      return names[0];
    }));
  }
  ensureIndex(keys, options = {}, commitQuorum) {
    return shellCall(this._createIndexes([keys], options, commitQuorum));
  }
  _listIndexes() {
    return this._coll().listIndexes(driverOptions({})).toArray();
  }
  getIndexes() { return shellCall(this._listIndexes()); }
  getIndexSpecs() { return shellCall(this._listIndexes()); }
  getIndices() { return shellCall(this._listIndexes()); }
  getIndexKeys() { return shellCall(this._listIndexes().then((indexes) => indexes.map((i) => i.key))); }
  dropIndexes(indexes = '*') {
    return shellCall(this._database._runCommand({ dropIndexes: this._name, index: indexes }));
  }
  dropIndex(index) {
    assertArgsDefinedType([index], [true], 'Collection.dropIndex');
    if (index === '*') {
      throw new MongoshInvalidInputError("To drop indexes in the collection using '*', use db.collection.dropIndexes().", CommonErrors.InvalidArgument);
    }
    if (Array.isArray(index)) {
      throw new MongoshInvalidInputError('The index to drop must be either the index name or the index specification document.', CommonErrors.InvalidArgument);
    }
    return this.dropIndexes(index);
  }

  // ---- the collection itself ----------------------------------------------------------------
  drop(options = {}) {
    return shellCall(this._drop(options));
  }
  async _drop(options) {
    try {
      return await this._coll().drop(driverOptions(options));
    } catch (error) {
      if (error?.codeName === 'NamespaceNotFound') return false;
      throw error;
    }
  }

  exists() {
    return shellCall(this._database._listCollections({ name: this._name }, {}).then((infos) => infos[0] || null));
  }
  isCapped() {
    return shellCall(this._database._listCollections({ name: this._name }, { nameOnly: false }).then((infos) => {
      if (infos.length === 0) throw new MongoshRuntimeError(`collection ${this._fullName()} not found`);
      return !!infos[0]?.options?.capped;
    }));
  }
  renameCollection(newName, dropTarget) {
    assertArgsDefinedType([newName], ['string'], 'Collection.renameCollection');
    return shellCall(this._rename(newName, dropTarget));
  }
  async _rename(newName, dropTarget) {
    try {
      await this._coll().rename(newName, driverOptions({ dropTarget: !!dropTarget }));
      return { ok: 1 };
    } catch (e) {
      if (e?.name === 'MongoError') return { ok: 0, errmsg: e.errmsg, code: e.code, codeName: e.codeName };
      throw e;
    }
  }

  runCommand(commandName, options) {
    assertArgsDefinedType([commandName], [['string', 'object']], 'Collection.runCommand');
    if (options) {
      if (typeof commandName !== 'string') {
        throw new MongoshInvalidInputError('Collection.runCommand takes a command string as its first arugment', CommonErrors.InvalidArgument);
      } else if (commandName in options) {
        throw new MongoshInvalidInputError('The "commandName" argument cannot be passed as an option to "runCommand".', CommonErrors.InvalidArgument);
      }
    }
    const cmd = typeof commandName === 'string' ? { [commandName]: this._name, ...options } : commandName;
    return shellCall(this._database._runCommand(cmd));
  }

  validate(options = false) {
    if (typeof options === 'boolean') options = { full: options };
    return shellCall(this._database._runCommand({ validate: this._name, ...options }));
  }

  stats(options = {}) {
    return shellCall(collectionStats(this, options));
  }
  latencyStats(options = {}) {
    return shellCall(this._aggregateToArray([{ $collStats: { latencyStats: options } }]));
  }
  async _storageStat(key) {
    const [{ value }] = await this._aggregateToArray([{ $collStats: { storageStats: {} } }, { $group: { _id: null, value: { $sum: `$storageStats.${key}` } } }]);
    return value;
  }
  dataSize() { return shellCall(this._storageStat('size')); }
  storageSize() { return shellCall(this._storageStat('storageSize')); }
  totalSize() { return shellCall(this._storageStat('totalSize')); }
  totalIndexSize(...args) {
    if (args.length) {
      throw new MongoshInvalidInputError('"totalIndexSize" takes no argument. Use db.collection.stats to get detailed information.', CommonErrors.InvalidArgument);
    }
    return shellCall(this._storageStat('totalIndexSize'));
  }

  explain(verbosity = 'queryPlanner') {
    return new Explainable(this._mongo, this, validateExplainableVerbosity(verbosity));
  }

  /** A deprecated method: mongosh's warning once per message, then the method. */
  async _deprecated(message, run) {
    await this._shell().printDeprecationWarning(message);
    return run();
  }
}

/** db.coll.explain(verbosity): the same calls, answered with the server's explain. */
class Explainable {
  constructor(mongo, collection, verbosity) {
    this._mongo = mongo;
    this._collection = collection;
    this._verbosity = verbosity;
  }
  [AS_PRINTABLE]() { return `Explainable(${this._collection.getFullName()})`; }
  getCollection() { return this._collection; }
  getVerbosity() { return this._verbosity; }
  setVerbosity(verbosity) { this._verbosity = validateExplainableVerbosity(verbosity); }
  find(query, projection, options = {}) {
    if (projection) options.projection = projection;
    const base = new Cursor(this._mongo, this._collection._driverFind(query, options));
    return shellValue(new ExplainableCursor(this._mongo, base, this._verbosity));
  }
  aggregate(...args) {
    const { pipeline, options } = aggregateArguments(args);
    return this._collection.aggregate(pipeline, { ...options, explain: this._verbosity });
  }
  count(query = {}, options = {}) {
    return shellCall(this._collection._database._runCommand({ explain: { count: `${this._collection._name}`, query, ...options }, verbosity: this._verbosity })
      .then(markAsExplainOutput));
  }
  distinct(field, query, options = {}) {
    return this._collection.distinct(field, query ?? {}, { ...options, explain: this._verbosity });
  }
}

addHiddenDataProperty(Collection.prototype, SHELL_API_TYPE, 'Collection');
addHiddenDataProperty(Explainable.prototype, SHELL_API_TYPE, 'Explainable');
stubMissingMethods(Collection.prototype, 'Collection');
stubMissingMethods(Explainable.prototype, 'Explainable');

module.exports = { Collection, Explainable };
