'use strict';
// mongosh's Mongo (shell-api mongo.js): one connection (a MongoClient) with its lean path
// (api/lean.js), the URI as mongosh normalises it, and a Database object per name, made once. The shell keeps every Mongo it
// opened, to close them all when the script ends.
const { SHELL_API_TYPE, AS_PRINTABLE, shellCall, addHiddenDataProperty } = require('./protocol');
const { assertArgsDefinedType, MongoshInvalidInputError, MongoshInternalError, MongoshRuntimeError, CommonErrors } = require('./errors');
const { assertValidDatabaseName, driverOptions } = require('./names');
const { connectionInfo, openClient } = require('./connection');
const { LeanPath } = require('./lean');
const { Database } = require('./database');
const { stubMissingMethods } = require('./unsupported');

class Mongo {
  constructor(shell, uri) {
    this._shell = shell;
    if (typeof uri === 'object' && uri !== null && typeof uri._uri === 'string') uri = uri._uri;
    else if (typeof uri !== 'string') uri = 'mongodb://localhost/';
    this._connectionInfo = connectionInfo(uri);
    this._mongoClient = null;
    this._leanPath = null;
    this._databases = Object.create(null);
  }

  get _uri() { return this._connectionInfo.connectionString; }

  async _connect(username, password) {
    if (username || password) this._connectionInfo = connectionInfo(this._uri, { username, password });
    this._mongoClient = await openClient(this._connectionInfo);
    this._leanPath = new LeanPath(this._mongoClient);
    this._shell.mongos.add(this);
    return this;
  }

  _client() {
    if (this._mongoClient === null) throw new MongoshInternalError('No ServiceProvider available for this mongo');
    return this._mongoClient;
  }

  /** The database the URI names, or test (what connect() returns). */
  _initialDb() {
    return this._client().options.dbName || 'test';
  }

  _getDb(name) {
    assertArgsDefinedType([name], ['string']);
    assertValidDatabaseName(name);
    return this._databases[name] ??= new Database(this, name);
  }

  getDB(db) {
    assertArgsDefinedType([db], ['string'], 'Mongo.getDB');
    return this._getDb(db);
  }

  getCollection(name) {
    assertArgsDefinedType([name], ['string']);
    const { db, coll } = /^(?<db>[^.]+)\.(?<coll>.+)$/.exec(name)?.groups ?? {};
    if (!db || !coll) throw new MongoshInvalidInputError('Collection must be of the format <db>.<collection>', CommonErrors.InvalidArgument);
    return this._getDb(db).getCollection(coll);
  }

  getURI() { return this._uri; }

  // the read preference in force (the URI's, as the driver parsed it), as mongosh's Mongo gives it
  getReadPref() { return this._client().readPreference; }
  getReadPrefMode() { return this.getReadPref().mode; }
  getReadPrefTagSet() { return this.getReadPref().tags; }

  getDBs(options = {}) { return shellCall(this._listDatabases(options)); }
  getDBNames(options = {}) { return shellCall(this._listDatabases(options).then((r) => r.databases.map((d) => d.name))); }
  async _listDatabases(options) {
    const result = await this._client().db('admin').admin().listDatabases(driverOptions(options));
    if (!('databases' in result)) throw new MongoshRuntimeError('Got invalid result from "listDatabases"', CommonErrors.CommandFailed);
    return result;
  }

  close() {
    return shellCall(this._close());
  }
  async _close() {
    this._shell.mongos.delete(this);
    this._leanPath?.close();
    if (this._mongoClient) await this._mongoClient.close();
  }

  /** print(mongo): the URI without its password, as mongosh prints a connection. */
  [AS_PRINTABLE]() {
    return require('mongodb-redact').redactConnectionString(this._uri); // 100 ms to load: only here
  }
}

addHiddenDataProperty(Mongo.prototype, SHELL_API_TYPE, 'Mongo');
stubMissingMethods(Mongo.prototype, 'Mongo');

/** new Mongo(uri) and connect(uri), as the script calls them. */
async function openMongo(shell, uri, { username, password } = {}) {
  const mongo = new Mongo(shell, uri);
  return mongo._connect(username, password);
}

module.exports = { Mongo, openMongo };
