'use strict';
// mongosh's cursors (shell-api abstract-cursor, aggregate-or-find-cursor, cursor,
// aggregation-cursor, explainable-cursor) over the driver's own cursors: chained settings go
// straight to the driver cursor, asynchronous methods are shell calls the script awaits. Where
// mongosh awaits each document only to count or skip it (itcount, forEach with a function that
// returns no promise), this reads the driver's buffered documents in place: the same documents
// decoded, the same getMores sent, fewer promises.
const {
  SHELL_API_TYPE, AS_PRINTABLE, SYNTHETIC_ASYNC_ITERABLE, shellCall, addHiddenDataProperty,
} = require('./protocol');
const { MongoshInvalidInputError, CommonErrors } = require('./errors');
const { CursorIterationResult, markAsExplainOutput } = require('./results');
const { stubMissingMethods } = require('./unsupported');

const DISPLAY_BATCH_SIZE = 20; // mongosh's config default: documents shown by print(cursor)

function isThenable(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
}

/** cursor.explain(verbosity): true, false or undefined as mongosh reads them. */
function validateExplainableVerbosity(verbosity) {
  if (verbosity === true) verbosity = 'allPlansExecution';
  else if (verbosity === false || verbosity === undefined) verbosity = 'queryPlanner';
  if (typeof verbosity !== 'string') throw new MongoshInvalidInputError('verbosity must be a string', CommonErrors.InvalidArgument);
  return verbosity;
}

/** What find() and aggregate() cursors share (mongosh's AbstractFiniteCursor and below). */
class BaseCursor {
  constructor(mongo, driverCursor) {
    this._mongo = mongo;
    this._cursor = driverCursor;
    this._transform = null;
  }

  // ---- settings, chained --------------------------------------------------------------------
  batchSize(size) { this._cursor.batchSize(size); return this; }
  maxTimeMS(value) { this._cursor.maxTimeMS(value); return this; }
  projection(spec) { this._cursor.project(spec); return this; }
  skip(value) { this._cursor.skip(value); return this; }
  sort(spec) { this._cursor.sort(spec); return this; }
  pretty() { return this; }
  disableBlockWarnings() { return this; }
  map(f) {
    const previous = this._transform;
    this._transform = previous === null ? f : (doc) => f(previous(doc));
    return this;
  }

  // ---- state --------------------------------------------------------------------------------
  isClosed() { return this._cursor.closed; }
  isExhausted() { return this.isClosed() && this.objsLeftInBatch() === 0; }
  objsLeftInBatch() { return this._cursor.bufferedCount(); }

  // ---- reading, awaited by the script --------------------------------------------------------
  hasNext() { return shellCall(this._cursor.hasNext()); }
  next() { return shellCall(this._next('next')); }
  tryNext() { return shellCall(this._next('tryNext')); }
  close() { return shellCall(this._cursor.close()); }
  toArray() { return shellCall(this._toArray()); }
  forEach(f) { return shellCall(this._forEach(f)); }
  itcount() { return shellCall(this._itcount()); }
  explain(verbosity) { return shellCall(this._explain(verbosity)); }

  async _next(method) {
    const doc = await this._cursor[method]();
    return doc !== null && this._transform !== null ? this._transform(doc) : doc;
  }

  async _toArray() {
    if (this._transform === null) return this._cursor.toArray();
    const docs = [];
    await this._forEach((doc) => { docs.push(doc); });
    return docs;
  }

  /** Each document to f, in order, awaiting f's result when it is a promise; false stops. */
  async _forEach(f) {
    const cursor = this._cursor;
    let finished = false;
    try {
      while (cursor.bufferedCount() > 0 || await cursor.hasNext()) {
        let doc = cursor.readBufferedDocuments(1)[0];
        if (this._transform !== null) {
          doc = this._transform(doc);
          if (isThenable(doc)) doc = await doc;
        }
        let verdict = f(doc);
        if (isThenable(verdict)) verdict = await verdict;
        if (verdict === false) return;
      }
      finished = true;
    } finally {
      // as leaving mongosh's for-await loop early: the driver cursor is closed
      if (!finished && !cursor.closed) await cursor.close();
    }
  }

  async _itcount() {
    const cursor = this._cursor;
    let count = 0;
    if (this._transform === null) {
      while (cursor.bufferedCount() > 0 || await cursor.hasNext()) count += cursor.readBufferedDocuments().length;
      return count;
    }
    // mongosh counts until the transformed document is falsy
    while (await this._next('tryNext')) count++;
    return count;
  }

  async _explain(verbosity) {
    verbosity = validateExplainableVerbosity(verbosity);
    const explain = { ...await this._cursor.explain(verbosity) };
    if (verbosity !== 'executionStats' && verbosity !== 'allPlansExecution' && explain.executionStats) delete explain.executionStats;
    if (verbosity === 'executionStats' && explain.executionStats && explain.executionStats.allPlansExecution) delete explain.executionStats.allPlansExecution;
    return markAsExplainOutput(explain);
  }

  /** print(cursor): the next documents, as mongosh's `it` shows them. */
  async [AS_PRINTABLE]() {
    const results = new CursorIterationResult();
    if (!this.isClosed()) {
      for (let i = 0; i < DISPLAY_BATCH_SIZE; i++) {
        const doc = await this._next('tryNext');
        if (doc === null) { results.cursorHasMore = false; break; }
        results.documents.push(doc);
      }
    }
    results.cursorHasMore = !this.isExhausted();
    return results;
  }

  async* [Symbol.asyncIterator]() {
    let doc;
    while ((doc = await this._next('tryNext')) != null) yield doc;
  }

  get [SYNTHETIC_ASYNC_ITERABLE]() { return true; }
}

/** db.coll.find()'s cursor (mongosh's Cursor). */
class Cursor extends BaseCursor {
  addOption(optionFlagNumber) {
    const flags = { 2: 'tailable', 8: 'oplogReplay', 16: 'noCursorTimeout', 32: 'awaitData', 64: 'exhaust', 128: 'partial' };
    if (optionFlagNumber === 4) throw new MongoshInvalidInputError('the slaveOk option is not supported.', CommonErrors.NotImplemented);
    if (!flags[optionFlagNumber]) throw new MongoshInvalidInputError(`Unknown option flag number: ${optionFlagNumber}.`, CommonErrors.InvalidArgument);
    this._cursor.addCursorFlag(flags[optionFlagNumber], true);
    return this;
  }
  allowDiskUse(allow) { this._cursor.allowDiskUse(allow); return this; }
  allowPartialResults() { this._cursor.addCursorFlag('partial', true); return this; }
  collation(spec) { this._cursor.collation(spec); return this; }
  comment(value) { this._cursor.comment(value); return this; }
  hint(index) { this._cursor.hint(index); return this; }
  limit(value) { this._cursor.limit(value); return this; }
  max(indexBounds) { this._cursor.max(indexBounds); return this; }
  min(indexBounds) { this._cursor.min(indexBounds); return this; }
  maxAwaitTimeMS(value) { this._cursor.maxAwaitTimeMS(value); return this; }
  noCursorTimeout() { this._cursor.addCursorFlag('noCursorTimeout', true); return this; }
  returnKey(enabled) { this._cursor.returnKey(enabled); return this; }
  showRecordId() { this._cursor.showRecordId(true); return this; }
  readConcern(level) { this._cursor = this._cursor.withReadConcern({ level }); return this; }
  readPref(mode) { this._cursor = this._cursor.withReadPreference(mode); return this; }
  count() { return shellCall(this._cursor.count()); }
  size() { return shellCall(this._cursor.count()); }
  toJSON() {
    throw new MongoshInvalidInputError('Cannot serialize a cursor to JSON. Did you mean to call .toArray() first?', CommonErrors.InvalidArgument);
  }
}

/** db.coll.aggregate()'s cursor (mongosh's AggregationCursor). */
class AggregationCursor extends BaseCursor {}

/** db.coll.explain().find()'s cursor: prints (and finish()es as) the explain of its query. */
class ExplainableCursor extends Cursor {
  constructor(mongo, baseCursor, verbosity) {
    super(mongo, baseCursor._cursor);
    this._baseCursor = baseCursor;
    this._verbosity = verbosity;
    this._explained = null;
  }
  finish() { return shellCall(this._finish()); }
  async _finish() {
    this._explained ??= await this._baseCursor._explain(this._verbosity);
    return this._explained;
  }
  [AS_PRINTABLE]() { return this._finish(); }
}

for (const [cls, type] of [[Cursor, 'Cursor'], [AggregationCursor, 'AggregationCursor'], [ExplainableCursor, 'ExplainableCursor']]) {
  addHiddenDataProperty(cls.prototype, SHELL_API_TYPE, type);
  stubMissingMethods(cls.prototype, type);
}

module.exports = { Cursor, AggregationCursor, ExplainableCursor, validateExplainableVerbosity };
