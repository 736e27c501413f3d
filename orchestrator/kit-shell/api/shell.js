'use strict';
// The shell itself: what mongosh's ShellInstanceState and ShellApi give a script. The global
// functions (connect, Mongo, print, printjson, sleep, quit, version, load ...), mongosh's BSON
// helpers (@mongosh/shell-bson over the driver's BSON classes, as mongosh builds them), `db`
// (before connect(), mongosh's "No connected database" stand-in), console.log/info/warn/error
// through print, and for every other mongosh global (use, show, rs, sh, config ...) a stub that
// stops the script with KitShellUnsupported. It also keeps the open connections, to close them
// when the script ends, and the set of warnings already shown (mongosh shows each once).
const bson = require('mongodb');
const { constructShellBson, makePrintableBson } = require('@mongosh/shell-bson');
const { SHELL_API_TYPE, shellCall } = require('./protocol');
const { assertArgsDefinedType, ExitRequest, MongoshInvalidInputError } = require('./errors');
const { createPrinter } = require('./printing');
const { openMongo, Mongo } = require('./mongo');
const { Database } = require('./database');
const { unsupportedMethod, unsupportedObject, mongoshMethods } = require('./unsupported');

// the mongosh release whose API this shell follows (shell-api's MONGOSH_VERSION)
const MONGOSH_VERSION = '2.12.0';

/** The BSON classes mongosh hands shell-bson: the driver's own, so instanceof Long holds. */
function bsonLibrary() {
  const { Binary, Code, DBRef, Double, Int32, Long, MinKey, MaxKey, ObjectId, Timestamp, Decimal128, BSONSymbol, BSONRegExp, UUID, BSON } = bson;
  return { Binary, Code, DBRef, Double, Int32, Long, MinKey, MaxKey, ObjectId, Timestamp, Decimal128, BSONSymbol, calculateObjectSize: BSON.calculateObjectSize, EJSON: BSON.EJSON, UUID, BSONRegExp };
}

/** `db` before connect(): every use fails as mongosh's NoDatabase does. */
function noDatabase() {
  const fail = () => { throw new MongoshInvalidInputError('No connected database', 'SHAPI-10004'); };
  return new Proxy({}, { get: fail });
}

/**
 * A shell writing to output. loadFile(filename) evaluates a file in the script's context (the
 * evaluator provides it). Returns { globals, shellFunctions, state }: globals go into the script's
 * context, and shellFunctions names those that are the shell's functions (not BSON classes).
 */
function createShell({ output, loadFile }) {
  const printer = createPrinter(output);
  const warningsShown = new Set();
  const once = (text) => {
    if (warningsShown.has(text)) return undefined;
    warningsShown.add(text);
    return printer.print(text);
  };
  const state = {
    printer,
    mongos: new Set(),
    currentDb: noDatabase(),
    printWarning: (message) => once(`Warning: ${message}`),
    printDeprecationWarning: (message) => once(`DeprecationWarning: ${message}`),
    /** Closes every connection the script opened (what mongosh does on exit). */
    async closeAll() {
      const open = [...state.mongos];
      state.mongos.clear();
      await Promise.all(open.map((m) => {
        m._leanPath?.close();
        return m._mongoClient?.close().catch(() => {});
      }));
    },
  };

  const lib = bsonLibrary();
  makePrintableBson(lib);
  const shellBson = constructShellBson({ bsonLibrary: lib, printWarning: (message) => { printer.printWarning(message); } });

  const api = {
    connect(uri, user, pwd) {
      assertArgsDefinedType([uri, user, pwd], ['string', [undefined, 'string'], [undefined, 'string']], 'connect');
      return shellCall(openMongo(state, uri, { username: user, password: pwd }).then((mongo) => mongo.getDB(mongo._initialDb())));
    },
    // `new Mongo(uri)` in a script: the constructor returns the (awaited) promise of a connection
    Mongo(uri) {
      return shellCall(openMongo(state, uri));
    },
    // both write at once (or once a printed cursor has its documents), then yield like any call
    print: (...args) => shellCall(Promise.resolve(printer.print(...args))),
    printjson: (...args) => shellCall(Promise.resolve(printer.printjson(...args))),
    sleep: (ms) => shellCall(new Promise((resolve) => setTimeout(resolve, ms))),
    quit(exitCode) {
      assertArgsDefinedType([exitCode], [[undefined, 'number']], 'exit');
      throw new ExitRequest(exitCode ?? 0);
    },
    exit(exitCode) {
      assertArgsDefinedType([exitCode], [[undefined, 'number']], 'exit');
      throw new ExitRequest(exitCode ?? 0);
    },
    version: () => MONGOSH_VERSION,
    isInteractive: () => false,
    load(filename) {
      assertArgsDefinedType([filename], ['string'], 'load');
      return shellCall(loadFile(filename).then(() => true));
    },
  };
  Object.defineProperty(api.Mongo, 'prototype', { value: Mongo.prototype });

  const globals = { ...api };
  for (const name of mongoshMethods('ShellApi')) {
    if (!(name in globals)) globals[name] = unsupportedMethod('ShellApi', name);
  }
  const shellFunctions = new Set(Object.keys(globals));
  Object.assign(globals, {
    rs: unsupportedObject('ReplicaSet', 'ReplicaSet class connected to the shell\'s server'),
    sh: unsupportedObject('Shard', 'Shard class connected to the shell\'s server'),
    sp: unsupportedObject('Streams'),
    log: unsupportedObject('ShellLog'),
    config: unsupportedObject('ShellConfig'),
    DBQuery: unsupportedObject('DBQuery'),
    help: unsupportedMethod('ShellApi', 'help'),
    buildInfo: unsupportedMethod('ShellApi', 'buildInfo'),
    ...shellBson,
  });
  return { globals, shellFunctions, state };
}

/** Whether value is a database of the kit's shell (the only thing `db` may be set to). */
function isDatabase(value) {
  return value !== null && typeof value === 'object' && value[SHELL_API_TYPE] === 'Database' && value instanceof Database;
}

module.exports = { createShell, isDatabase, MONGOSH_VERSION };
