'use strict';
// The lean path: the single-document writes and reads the scenario scripts time (insertOne,
// updateOne, updateMany, replaceOne, deleteOne, deleteMany, findOne, and the deprecated update
// and remove that call them), sent on the driver's own connection with the driver's own
// command documents, at close to a raw socket's cost. The bench showed where the driver's cost
// per call goes: server selection, a pool checkout, an implicit session object, an operation
// object, async generators over a stream per reply; a C client spends a third of that.
//
// How: the kit borrows one connection from the driver's pool (opened by the driver: its
// handshake, authentication and TLS) and keeps it while the script's calls come, handing it
// back the moment the driver wants a connection from that pool (any other call of the script,
// closing), so that on a one-connection client everything stays in the order it was sent, as
// the scripts' barrier after w:0 writes needs. On it, each call builds what the driver's
// operation builds (lib/operations/insert.js, update.js, delete.js, find.js: the same fields in
// the same order, the collection's inherited write concern, the implicit session's lsid from the
// driver's own session pool where the server takes sessions, none on a w:0 write), frames it as
// the driver's OpMsgRequest does (w:0 as moreToCome, no reply awaited), reads the next message
// from the connection's own message stream (so a server that answers a w:0 write anyway puts the
// connection out of step exactly as it does the driver's), and turns the reply into what the
// driver gives: the same result objects and the same error classes (MongoServerError for ok: 0
// and write errors, MongoWriteConcernError), decorated by the driver's server as its own errors
// are (its SDAM reactions included).
//
// A replica set's primary is covered as a standalone is, with what the driver adds there (its
// lib/sessions.js applySession and lib/cmap/connection.js prepareCommand): a retryable write
// (insertOne, updateOne, replaceOne, deleteOne, acknowledged, with retryWrites on) carries the
// implicit session's txnNumber after its lsid, and is retried once, with the same lsid and
// txnNumber, on an error the driver retries a write for (lib/operations/execute_operation.js);
// every command carries the $clusterTime last received on its connection, as the driver's
// connection gossips it (an implicit session starts without one: ClientSession's
// initialClusterTime is never set, so the connection's is what the driver sends).
//
// What it does not cover goes through the driver, counted with its reason: secondaries, mongos,
// a direct connection to a replica-set member (the driver then adds $readPreference to every
// command), a replica set with no primary known, a client with compression, a server API
// version, auto-encryption, timeouts or command monitoring; sessions and transactions the script starts, options beyond writeConcern, upsert
// and a projection, explain, bulk operations (insertMany, the deprecated insert, bulkWrite),
// cursors; and a call that meets an error the driver
// retries (a network error on a read, an overload error, reauthentication), which the driver
// then makes again from the start. CLASSICS_KIT_SHELL_LEAN=off (`orchestrate --lean off`) sends
// everything through the driver.
const { BSON, WriteConcern, MongoServerError, MongoWriteConcernError, MongoErrorLabel } = require('mongodb');
const { isRetryableWriteError } = require('mongodb/lib/error');
const { OpMsgRequest } = require('mongodb/lib/cmap/commands');
const { Connection } = require('mongodb/lib/cmap/connection');
const { TimeoutContext } = require('mongodb/lib/timeout');
const { hasAtomicOperators, processTimeMS } = require('mongodb/lib/utils');
const { resolveConfig } = require('../../config');
const { noteSocketEvent } = require('./protocol');

const OP_MSG = 2013;
const MORE_TO_COME = 2;
const REAUTHENTICATE = 391;
const CHECK_OUT_STARTED = 'connectionCheckOutStarted';

/** Whether the lean path is on in this process (CLASSICS_KIT_SHELL_LEAN, `orchestrate --lean`). */
function leanEnabled(env = process.env) {
  return resolveConfig(env).kitShellLean !== 'off';
}

// ---- what took each call, for the run's records ------------------------------------------------

/** The script's methods the lean path takes (the rest, cursors and bulk writes, are the driver's). */
const COVERED = ['insertOne', 'updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany', 'findOne', 'update', 'remove'];

/** Per method: calls by path, and why calls went to the driver. */
const usage = { covered: COVERED, lean: {}, driver: {}, why: {} };
function count(method, path, why) {
  usage[path][method] = (usage[path][method] ?? 0) + 1;
  if (why) {
    const reasons = (usage.why[method] ??= {});
    reasons[why] = (reasons[why] ?? 0) + 1;
  }
}

// ---- framing ----------------------------------------------------------------------------------

/** The OP_MSG bytes of command (one kind-0 section), as the driver's OpMsgRequest writes them. */
function frame(command, moreToCome, serializeOptions) {
  const body = BSON.serialize(command, serializeOptions);
  const message = Buffer.allocUnsafe(21 + body.length);
  message.writeInt32LE(21 + body.length, 0);
  message.writeInt32LE(OpMsgRequest.getRequestId(), 4);
  message.writeInt32LE(0, 8);
  message.writeInt32LE(OP_MSG, 12);
  message.writeUInt32LE(moreToCome ? MORE_TO_COME : 0, 16);
  message[20] = 0;
  message.set(body, 21);
  return message;
}

/** The reply document of an OP_MSG message, decoded as the driver's MongoDBResponse.toObject does. */
function replyDocument(message, deserializeOptions) {
  if (message.readInt32LE(12) !== OP_MSG || message[20] !== 0) {
    throw new MongoServerError({ message: `the lean path got a reply it cannot read (opCode ${message.readInt32LE(12)})` });
  }
  const size = message.readInt32LE(21);
  return BSON.deserialize(message.subarray(21, 21 + size), deserializeOptions);
}

// ---- the borrowed connection -----------------------------------------------------------------

/** Thrown inside the lean path when the call must be made by the driver instead. */
class UseDriver extends Error {}

/** One client's borrowed connection. */
class LeanChannel {
  constructor(client) {
    this.client = client;
    this.server = null;
    this.connection = null;
    this.borrowing = null;
    this.pending = []; // the exchanges awaiting replies, in the order their requests went
    this.unread = []; // replies no exchange awaits (a server answering w:0), handed back with the connection
    this.releaseWhenIdle = false;
    this.onMessage = (message) => {
      noteSocketEvent();
      const exchange = this.pending.shift();
      if (exchange) exchange.settle(message);
      else this.unread.push(message);
      if ((this.releaseWhenIdle || this.server.pool.waitQueueSize > 0) && this.pending.length === 0) this.release();
    };
    this.onCheckOutStarted = () => this.release();
    this.onClose = () => {
      const error = this.connection?.error;
      for (const exchange of this.pending.splice(0)) exchange.fail(error);
      this.release();
    };
  }

  /** Why this client's calls cannot take the lean path now (null: they can). */
  unavailable() {
    const { client } = this;
    const topology = client.topology;
    if (!topology || topology.s.state !== 'connected') return 'the client is not connected';
    if (this.checked === undefined) {
      const options = client.options;
      this.checked = options.compressors?.length && !(options.compressors.length === 1 && options.compressors[0] === 'none') ? 'the client compresses its messages'
        : options.serverApi ? 'the client declares a server API version'
          : options.autoEncryption || options.autoEncrypter ? 'the client encrypts automatically'
            : options.timeoutMS != null || options.socketTimeoutMS ? 'the client sets timeouts'
              : options.monitorCommands ? 'the client monitors commands'
                : options.loadBalanced ? 'the client is load balanced' : null;
    }
    if (this.checked) return this.checked;
    const topologyType = topology.description.type;
    if (topologyType === 'Single') {
      this.server ??= [...topology.s.servers.values()][0];
      const type = this.server.description.type;
      if (type === 'Standalone') return null;
      // the driver adds $readPreference: primaryPreferred to each command on a direct connection
      if (type === 'RSPrimary') return 'a direct connection to a replica-set member';
      return `the server is ${type === 'Unknown' ? 'not known to be up' : `a ${type}`}`;
    }
    if (topologyType !== 'ReplicaSetWithPrimary') return `the topology is ${topologyType}`;
    // the primary, as the driver selects it for a write or a primary read
    let primary = null;
    for (const server of topology.s.servers.values()) if (server.description.type === 'RSPrimary') primary = server;
    if (!primary) return 'the replica set has no primary known';
    if (this.server !== primary) {
      if (this.connection && !this.pending.length) this.release();
      if (this.connection) return 'the primary changed';
      this.server = primary;
    }
    return null;
  }

  /** Whether a write on this server is retryable (the driver's supportsRetryableWrites, with retryWrites on). */
  retryableWrites() {
    const { description } = this.server;
    return this.client.s.options.retryWrites !== false && description.type !== 'Standalone' && description.logicalSessionTimeoutMinutes != null;
  }

  /** Resolves once the lean path holds a connection borrowed from the driver's pool. */
  acquire() {
    if (this.connection) return Promise.resolve();
    this.borrowing ??= this.borrow().finally(() => { this.borrowing = null; });
    return this.borrowing;
  }

  async borrow() {
    const { pool } = this.server;
    const timeoutContext = TimeoutContext.create({
      serverSelectionTimeoutMS: this.client.s.options.serverSelectionTimeoutMS,
      waitQueueTimeoutMS: this.client.s.options.waitQueueTimeoutMS,
    });
    let connection;
    try {
      connection = await pool.checkOut({ timeoutContext });
    } catch {
      throw new UseDriver('the pool gave no connection');
    }
    const why = connection.closed ? 'the connection closed'
      : connection.description.compressor ? 'the connection compresses its messages'
        : !connection.supportsOpMsg ? 'the connection does not speak OP_MSG'
          : connection.shouldEmitAndLogCommand ? 'the driver logs commands' : null;
    if (why) {
      pool.checkIn(connection);
      throw new UseDriver(why);
    }
    this.connection = connection;
    this.releaseWhenIdle = false;
    connection.messageStream.on('data', this.onMessage);
    connection.messageStream.resume();
    connection.once(Connection.CLOSE, this.onClose);
    pool.on(CHECK_OUT_STARTED, this.onCheckOutStarted);
  }

  /** Hands the connection back to the driver's pool, at once or once the replies awaited are in. */
  release() {
    const { connection } = this;
    if (!connection) return;
    if (this.pending.length && !connection.closed) {
      this.releaseWhenIdle = true;
      return;
    }
    this.connection = null;
    const { messageStream } = connection;
    messageStream.off('data', this.onMessage);
    messageStream.pause();
    // what the driver reads next on this connection is what it would have read
    for (const message of this.unread.splice(0).reverse()) messageStream.unshift(message);
    connection.off(Connection.CLOSE, this.onClose);
    this.server.pool.off(CHECK_OUT_STARTED, this.onCheckOutStarted);
    this.server.pool.checkIn(connection);
  }

  close() {
    this.release();
  }
}

/**
 * One call on the borrowed connection, prepared and sent as the driver's Connection prepares and
 * sends a command: the implicit session's lsid (none on a w:0 write), then $clusterTime where the
 * server gossips one, then $db, framed as OpMsgRequest frames it. Its reply settles it: ok: 0
 * and a write concern error are the driver's errors, decorated by the driver's server (its SDAM
 * reactions included); otherwise finish(reply) makes the driver's result. An error the driver
 * would retry hands the call to the driver, from the start.
 */
class Exchange {
  constructor(path, method, setting, command, moreToCome, read, finish, driverCall, retryable = false) {
    this.retryable = retryable; // a write the driver would retry (one statement, acknowledged)
    this.firstError = null; // the first attempt's error, once a retry is under way
    this.path = path;
    this.method = method;
    this.setting = setting;
    this.command = command;
    this.moreToCome = moreToCome;
    this.read = read;
    this.finish = finish;
    this.driverCall = driverCall;
    this.serverSession = null;
    this.connection = null;
    this.resolve = null;
    this.reject = null;
  }

  /** Sends the call; resolves to finish(reply), or to what the driver gives where it took the call. */
  start() {
    const { channel } = this.path;
    if (channel.connection === null) {
      return channel.acquire().then(() => this.start(), (error) => {
        if (this.firstError === null) return this.handOver(error);
        // a retry's connection could not be had: the first attempt's error, as the driver's
        this.endSession();
        count(this.method, 'lean');
        throw this.firstError;
      });
    }
    const connection = (this.connection = channel.connection);
    const { command } = this;
    if (!this.moreToCome && connection.hasSessionSupport && this.firstError === null) {
      this.serverSession = this.path.client.s.sessionPool.acquire();
      this.serverSession.lastUse = processTimeMS();
      command.lsid = this.serverSession.id;
      // applySession: a retryable write's txnNumber, the session's next, after the lsid
      if (this.retryable && channel.retryableWrites()) {
        this.serverSession.txnNumber += 1;
        command.txnNumber = BSON.Long.fromNumber(this.serverSession.txnNumber);
      }
    }
    // prepareCommand: the $clusterTime last received on this connection (a retry's connection's
    // own: only a retry's command has them already, and a delete would slow every other call)
    if (this.firstError !== null) {
      delete command.$clusterTime;
      delete command.$db;
    }
    if (connection.clusterTime) command.$clusterTime = connection.clusterTime;
    command.$db = this.setting.db;
    let bytes;
    try {
      bytes = frame(command, this.moreToCome, this.setting.serializeOptions);
    } catch (error) {
      this.endSession();
      count(this.method, 'lean');
      return Promise.reject(error);
    }
    if (this.moreToCome) {
      count(this.method, 'lean');
      if (connection.socket.write(bytes)) return Promise.resolve(this.finish(null));
      return new Promise((resolve) => { connection.socket.once('drain', resolve); }).then(() => this.finish(null));
    }
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      if (channel.unread.length) {
        // a reply the server sent unasked (after a w:0 write) is what this call reads, as in the driver
        const message = channel.unread.shift();
        connection.socket.write(bytes);
        queueMicrotask(() => this.settle(message));
      } else {
        channel.pending.push(this);
        connection.socket.write(bytes);
      }
    });
  }

  settle(message) {
    let reply;
    try {
      reply = replyDocument(message, this.setting.deserializeOptions);
      if (reply.$clusterTime) {
        this.connection.clusterTime = reply.$clusterTime;
        this.connection.emit(Connection.CLUSTER_TIME_RECEIVED, reply.$clusterTime);
      }
      if (reply.ok === 0) throw new MongoServerError(reply);
      // Server.command: a reply carrying a write concern error throws it
      if ('writeConcernError' in reply) throw new MongoWriteConcernError(reply);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.endSession();
    count(this.method, 'lean');
    try {
      this.resolve(this.finish(reply));
    } catch (error) {
      this.reject(error); // the write errors the driver's operation throws
    }
  }

  fail(error) {
    if (error?.name === 'MongoNetworkError' && this.serverSession) this.serverSession.isDirty = true;
    const decorated = this.path.channel.server.decorateCommandError(this.connection, this.command, {}, error);
    // a retryable write the driver would make once more: the same lsid and txnNumber, sent again
    // once the replica set has a primary (the driver's retry selects one again)
    if (this.command.txnNumber !== undefined && this.firstError === null && typeof decorated?.hasErrorLabel === 'function' && isRetryableWriteError(decorated)) {
      this.firstError = decorated;
      const { resolve, reject } = this; // the retry's own start() sets this.resolve anew
      this.retry().then(resolve, reject);
      return;
    }
    // the driver keeps the first error once a write may have been performed
    const reported = this.firstError && decorated?.hasErrorLabel?.(MongoErrorLabel.NoWritesPerformed) ? this.firstError : decorated;
    this.endSession();
    if (this.firstError) {
      count(this.method, 'lean');
      this.reject(reported);
      return;
    }
    if (decorated?.code === REAUTHENTICATE || decorated?.hasErrorLabel?.('SystemOverloadedError') ||
      (this.read && decorated?.name === 'MongoNetworkError')) {
      this.resolve(this.handOver(new UseDriver('an error the driver retries')));
      return;
    }
    count(this.method, 'lean');
    this.reject(decorated);
  }

  /** The second attempt of a retryable write, on the primary once one is known (within server selection's time). */
  async retry() {
    const { channel } = this.path;
    const deadline = Date.now() + (this.path.client.s.options.serverSelectionTimeoutMS ?? 30000);
    while (channel.unavailable() !== null) {
      if (Date.now() > deadline) {
        this.endSession();
        count(this.method, 'lean');
        throw this.firstError;
      }
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
    return this.start();
  }

  /** The call made by the driver instead (counted so, with why), or error itself if it is not UseDriver. */
  handOver(error) {
    if (!(error instanceof UseDriver)) throw error;
    count(this.method, 'driver', error.message);
    return this.driverCall();
  }

  endSession() {
    if (this.serverSession) this.path.client.s.sessionPool.release(this.serverSession);
    this.serverSession = null;
  }
}

// ---- the calls --------------------------------------------------------------------------------

const WRITE_OPTIONS = new Set(['writeConcern', 'serializeFunctions', 'promoteLongs']);
const UPDATE_OPTIONS = new Set([...WRITE_OPTIONS, 'upsert', 'multi']);
const FIND_OPTIONS = new Set(['projection', 'serializeFunctions', 'promoteLongs']);

/** A plain document: not null, an array or a BSON value (the driver reads an ObjectId filter as { _id }). */
function isDocument(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && value._bsontype === undefined;
}

/** The first option of options outside allowed, as the reason a call goes to the driver. */
function unsupportedOption(options, allowed) {
  for (const key in options) if (!allowed.has(key) && options[key] !== undefined) return `the option ${key}`;
  return null;
}

/**
 * One mongosh connection's lean path. Each method returns the promise of what the driver's
 * method of the same name resolves to, or undefined where the driver must make the call (the
 * caller then does, and the call is counted as the driver's with its reason).
 */
class LeanPath {
  constructor(client, { enabled = leanEnabled() } = {}) {
    this.client = client;
    this.enabled = enabled;
    this.channel = enabled ? new LeanChannel(client) : null;
    this.collections = new WeakMap(); // driver collection → what each of its calls shares
  }

  /** Why calls with these options on coll cannot go lean (null: they can). */
  refusal(coll, options, allowed) {
    if (!this.enabled) return 'the lean path is off';
    if (options.session) return 'a session of the script';
    if (options.explain) return 'explain';
    return unsupportedOption(options, allowed) ?? this.channel.unavailable() ?? this.setting(coll).refusal;
  }

  /** Serialisation and inherited settings of a driver collection, read once. */
  setting(coll) {
    let setting = this.collections.get(coll);
    if (setting) return setting;
    const bson = { ...coll.bsonOptions, serializeFunctions: true, promoteLongs: false };
    const refusal = bson.raw || Object.keys(bson.fieldsAsRaw ?? {}).length ? 'raw BSON results'
      : coll.db.options?.forceServerObjectId ? 'forceServerObjectId'
        : coll.s.pkFactory?.createPk === undefined ? 'a custom primary key factory' : null;
    setting = {
      refusal,
      db: coll.dbName,
      name: coll.collectionName,
      writeConcern: coll.writeConcern,
      readConcern: coll.readConcern,
      readPreference: coll.readPreference,
      pkFactory: coll.s.pkFactory,
      serializeOptions: { checkKeys: false, serializeFunctions: bson.serializeFunctions, ignoreUndefined: bson.ignoreUndefined },
      deserializeOptions: {
        useBigInt64: bson.useBigInt64, promoteLongs: bson.promoteLongs, promoteValues: bson.promoteValues,
        promoteBuffers: bson.promoteBuffers, bsonRegExp: bson.bsonRegExp,
        validation: bson.enableUtf8Validation === false ? { utf8: false } : { utf8: { writeErrors: false } },
      },
    };
    this.collections.set(coll, setting);
    return setting;
  }

  /**
   * A write: the command built, sent, and its reply turned into the driver's result. retryable:
   * one statement the driver would retry on a replica set (its operation's canRetryWrite: not an
   * update with multi, not a delete with limit 0).
   */
  write(method, coll, options, allowed, build, result, driverCall, retryable) {
    const why = this.refusal(coll, options, allowed);
    if (why) return this.declined(method, why);
    const setting = this.setting(coll);
    // CommandOperation: the call's write concern, else the collection's (inherited from the URI)
    const writeConcern = WriteConcern.fromOptions(options) ?? setting.writeConcern;
    const command = build(setting);
    if (writeConcern) WriteConcern.apply(command, writeConcern);
    const acknowledged = writeConcern?.w !== 0;
    const finish = (reply) => result(reply ?? {}, acknowledged);
    return new Exchange(this, method, setting, command, !acknowledged, false, finish, driverCall, retryable && acknowledged).start();
  }

  insertOne(method, coll, doc, options, driverCall) {
    if (!isDocument(doc)) return this.declined(method, 'a document that is not an object');
    return this.write(method, coll, options, WRITE_OPTIONS, (setting) => {
      // maybeAddIdToDocuments: the driver adds _id, at the end, to the document it is given
      if (doc._id == null) doc._id = setting.pkFactory.createPk();
      return { insert: setting.name, documents: [doc], ordered: true };
    }, (res, acknowledged) => {
      throwWriteErrors(res);
      return { acknowledged, insertedId: doc._id };
    }, driverCall, true);
  }

  update(method, coll, filter, update, options, multi, driverCall) {
    if (!isDocument(filter) || !isDocument(update)) return this.declined(method, 'a filter or update that is not an object');
    if (!hasAtomicOperators(update, options)) return this.declined(method, 'an update without operators');
    return this.write(method, coll, options, UPDATE_OPTIONS, (setting) => ({
      update: setting.name, updates: [updateStatement(filter, update, options, multi)], ordered: true,
    }), updateResult, driverCall, !multi);
  }

  replaceOne(method, coll, filter, replacement, options, driverCall) {
    if (!isDocument(filter) || !isDocument(replacement)) return this.declined(method, 'a filter or replacement that is not an object');
    if (hasAtomicOperators(replacement)) return this.declined(method, 'a replacement with operators');
    return this.write(method, coll, options, UPDATE_OPTIONS, (setting) => ({
      update: setting.name, updates: [updateStatement(filter, replacement, options, false)], ordered: true,
    }), updateResult, driverCall, true);
  }

  delete(method, coll, filter, options, limit, driverCall) {
    if (!isDocument(filter)) return this.declined(method, 'a filter that is not an object');
    return this.write(method, coll, options, WRITE_OPTIONS, (setting) => ({
      delete: setting.name, deletes: [{ q: filter, limit }], ordered: true,
    }), (res, acknowledged) => {
      throwWriteErrors(res);
      return { acknowledged, deletedCount: res.n };
    }, driverCall, limit > 0);
  }

  /** find(filter, { projection }).limit(1).tryNext(): mongosh's findOne, one find command. */
  findOne(method, coll, filter, options, driverCall) {
    if (!isDocument(filter)) return this.declined(method, 'a filter that is not an object');
    const why = this.refusal(coll, options, FIND_OPTIONS);
    if (why) return this.declined(method, why);
    const setting = this.setting(coll);
    if (setting.readConcern) return this.declined(method, 'a read concern');
    if (setting.readPreference && setting.readPreference.mode !== 'primary') return this.declined(method, 'a read preference');
    const command = { find: setting.name, filter };
    if (options.projection) command.projection = options.projection;
    command.limit = 1;
    return new Exchange(this, method, setting, command, false, true, firstDocument, driverCall).start();
  }

  /** Counts a call the driver makes, with why (a method the lean path never takes says its own reason). */
  declined(method, why) {
    count(method, 'driver', this.enabled ? why : 'the lean path is off');
    return undefined;
  }

  close() {
    this.channel?.close();
  }
}

/** What mongosh's findOne gives: the first document of the first batch, or null. */
function firstDocument(reply) {
  return reply.cursor?.firstBatch?.[0] ?? null;
}

/** makeUpdateStatement: { q, u, upsert?, multi? } as the driver builds it. */
function updateStatement(filter, update, options, multi) {
  const statement = { q: filter, u: update };
  if (typeof options.upsert === 'boolean') statement.upsert = options.upsert;
  if (multi) statement.multi = true;
  return statement;
}

/** The driver's handleOk of a write: a code or the first write error becomes a MongoServerError. */
function throwWriteErrors(res) {
  if (res.code) throw new MongoServerError(res);
  if (res.writeErrors) throw new MongoServerError(res.writeErrors[0]);
}

/** UpdateOneOperation.handleOk (and UpdateMany's, ReplaceOne's: the same). */
function updateResult(res, acknowledged) {
  throwWriteErrors(res);
  const upserted = Array.isArray(res.upserted) && res.upserted.length > 0;
  return {
    acknowledged,
    modifiedCount: res.nModified ?? res.n,
    upsertedId: upserted ? res.upserted[0]._id : null,
    upsertedCount: upserted ? res.upserted.length : 0,
    matchedCount: upserted ? 0 : res.n,
  };
}

module.exports = { LeanPath, leanEnabled, usage, frame, replyDocument };
