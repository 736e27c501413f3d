'use strict';
// mongosh's result objects (shell-api result.js): the same class names, fields in the same
// order, printed as their plain fields, so `print(res)` and `res.matchedCount` read as in mongosh.
const { SHELL_API_TYPE, AS_PRINTABLE } = require('./protocol');

class ShellResult {
  [AS_PRINTABLE]() {
    return { ...this };
  }
}

function typed(cls) {
  Object.defineProperty(cls.prototype, SHELL_API_TYPE, { value: cls.name });
  return cls;
}

const InsertOneResult = typed(class InsertOneResult extends ShellResult {
  constructor(acknowledged, insertedId) {
    super();
    this.acknowledged = acknowledged;
    this.insertedId = insertedId;
  }
});

const InsertManyResult = typed(class InsertManyResult extends ShellResult {
  constructor(acknowledged, insertedIds) {
    super();
    this.acknowledged = acknowledged;
    this.insertedIds = insertedIds;
  }
});

const UpdateResult = typed(class UpdateResult extends ShellResult {
  constructor(acknowledged, matchedCount, modifiedCount, upsertedCount, insertedId) {
    super();
    this.acknowledged = acknowledged;
    this.insertedId = insertedId;
    this.matchedCount = matchedCount;
    this.modifiedCount = modifiedCount;
    this.upsertedCount = upsertedCount;
  }
});

const DeleteResult = typed(class DeleteResult extends ShellResult {
  constructor(acknowledged, deletedCount) {
    super();
    this.acknowledged = acknowledged;
    this.deletedCount = deletedCount;
  }
});

const BulkWriteResult = typed(class BulkWriteResult extends ShellResult {
  constructor(acknowledged, insertedCount, insertedIds, matchedCount, modifiedCount, deletedCount, upsertedCount, upsertedIds) {
    super();
    this.acknowledged = acknowledged;
    this.insertedCount = insertedCount;
    this.insertedIds = insertedIds;
    this.matchedCount = matchedCount;
    this.modifiedCount = modifiedCount;
    this.deletedCount = deletedCount;
    this.upsertedCount = upsertedCount;
    this.upsertedIds = upsertedIds;
  }
});

/** What print(cursor) shows: the next documents (up to mongosh's displayBatchSize, 20). */
const CursorIterationResult = typed(class CursorIterationResult extends ShellResult {
  constructor() {
    super();
    this.cursorHasMore = true;
    this.documents = [];
  }
});

/** Marks a server's explain answer, which prints at full depth (helpers.markAsExplainOutput). */
function markAsExplainOutput(value) {
  if (value !== null && typeof value === 'object') {
    Object.defineProperty(value, SHELL_API_TYPE, { value: 'ExplainOutput', enumerable: false, writable: true, configurable: true });
  }
  return value;
}

/** mongosh's DeleteResult from a driver result. */
function deleteResult(r) {
  return new DeleteResult(!!r.acknowledged, r.deletedCount);
}

/** mongosh's UpdateResult from a driver result (the driver's upsertedId is its insertedId). */
function updateResult(r) {
  return new UpdateResult(!!r.acknowledged, r.matchedCount, r.modifiedCount, r.upsertedCount, r.upsertedId);
}

module.exports = {
  InsertOneResult, InsertManyResult, UpdateResult, DeleteResult, BulkWriteResult, CursorIterationResult,
  markAsExplainOutput, deleteResult, updateResult,
};
