'use strict';
// The kit touches only databases of its own: named with its prefix and marked when it creates
// them. A database with the prefix but no mark is someone else's, and the kit refuses it.
// Clean-up drops the database, or, for a user allowed only readWrite (common on Atlas: it may drop
// collections but not databases), every collection in it; a clean-up the server refuses is said in
// one line and never turns a measured scenario into a failed one.
const { NotOursError } = require('../errors');
const { OWNER_MARK: MARK_COLLECTION } = require('../config');

const MARK_ID = 'mongo-classics';
const UNAUTHORIZED = 13;

function assertPrefixed(name, prefix) {
  if (!name.startsWith(prefix)) throw new NotOursError(`database ${name} does not start with ${prefix}: the kit writes only to its own databases`);
}

async function isMarked(db) {
  return Boolean(await db.collection(MARK_COLLECTION).findOne({ _id: MARK_ID }));
}

/** Empties a database: dropDatabase, or each collection where the user may not drop databases. */
async function emptyDatabase(db) {
  try {
    await db.dropDatabase();
  } catch (err) {
    if (err.code !== UNAUTHORIZED) throw err;
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    // the mark goes last, so a clean-up cut short still leaves the database recognisably the kit's
    for (const name of names.filter((n) => n !== MARK_COLLECTION).concat(names.includes(MARK_COLLECTION) ? [MARK_COLLECTION] : [])) {
      await db.collection(name).drop().catch((e) => { if (e.codeName !== 'NamespaceNotFound') throw e; });
    }
  }
}

/**
 * Makes `name` an empty database of the kit's: empties it if it holds the kit's mark, refuses if
 * it holds anything without the mark, and marks it.
 */
async function claimDatabase(client, name, { prefix, runId }) {
  assertPrefixed(name, prefix);
  const db = client.db(name);
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  if (collections.length) {
    if (!(await isMarked(db))) {
      throw new NotOursError(`database ${name} exists and was not created by mongo-classics (no ${MARK_COLLECTION} mark): the kit will not drop or write it`);
    }
    await emptyDatabase(db);
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

/**
 * Drops a database only if it carries the mark. Resolves to null, or to the one line saying why
 * the server refused the clean-up (the caller prints it; the measurements stand).
 */
async function dropOwnedDatabase(client, name, { prefix }) {
  assertPrefixed(name, prefix);
  const db = client.db(name);
  try {
    if (await isMarked(db)) await emptyDatabase(db);
    return null;
  } catch (err) {
    return `could not drop the kit's database ${name} after the run (${err.codeName || err.message}); drop it yourself when you are done`;
  }
}

module.exports = { claimDatabase, markDatabase, dropOwnedDatabase, emptyDatabase, MARK_COLLECTION };
