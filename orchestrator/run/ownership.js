'use strict';
// The kit touches only databases of its own: named with its prefix and marked when it creates
// them. A database with the prefix but no mark is someone else's, and the kit refuses it.
const { ClassicsError } = require('../errors');

const MARK_COLLECTION = 'classics_owner';
const MARK_ID = 'mongo-classics';

class NotOursError extends ClassicsError {}

function assertPrefixed(name, prefix) {
  if (!name.startsWith(prefix)) throw new NotOursError(`database ${name} does not start with ${prefix}: the kit writes only to its own databases`);
}

async function isMarked(db) {
  return Boolean(await db.collection(MARK_COLLECTION).findOne({ _id: MARK_ID }));
}

/**
 * Makes `name` an empty database of the kit's: drops it if it holds the kit's mark, refuses if it
 * holds anything without the mark, and marks it.
 */
async function claimDatabase(client, name, { prefix, runId }) {
  assertPrefixed(name, prefix);
  const db = client.db(name);
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  if (collections.length) {
    if (!(await isMarked(db))) {
      throw new NotOursError(`database ${name} exists and was not created by mongo-classics (no ${MARK_COLLECTION} mark): the kit will not drop or write it`);
    }
    await db.dropDatabase();
  }
  await markDatabase(db, runId);
  return db;
}

/** Puts the mark back if a script dropped the database it was working in. */
async function markDatabase(db, runId) {
  await db.collection(MARK_COLLECTION).updateOne(
    { _id: MARK_ID },
    { $setOnInsert: { kit: 'mongo-classics', createdAt: new Date(), run: runId } },
    { upsert: true },
  );
}

/** Drops a database only if it carries the mark. */
async function dropOwnedDatabase(client, name, { prefix }) {
  assertPrefixed(name, prefix);
  const db = client.db(name);
  if (await isMarked(db)) await db.dropDatabase();
}

module.exports = { claimDatabase, markDatabase, dropOwnedDatabase, NotOursError, MARK_COLLECTION };
