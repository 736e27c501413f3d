'use strict';
// The kit touches only databases of its own: named with its prefix and marked when it creates
// them. A database with the prefix but no mark is someone else's, and the kit refuses it.
// Clean-up drops the database, or, for a user allowed only readWrite (common on Atlas: readWrite
// grants dropCollection but not dropDatabase, src/mongo/db/auth/builtin_roles.yml), every
// collection in it, the mark last; a clean-up the server refuses is said in one line and never
// turns a measured scenario into a failed one.
const { ClassicsError, NotOursError } = require('../errors');
const { OWNER_MARK: MARK_COLLECTION } = require('../config');
const { isTierRefusal } = require('../servers/atlas');

const MARK_ID = 'mongo-classics';

/**
 * Whether the server refused an operation the kit can go on without: for want of a privilege
 * (mongod answers code 13, Unauthorized, to a command the user's roles do not allow; Atlas's
 * shared and Flex tiers answer through a proxy, with code 8000, AtlasError, and "user is not
 * allowed to do action [...]" or "(Unauthorized) not authorized on ..."), or because an Atlas tier
 * does not allow the command at all (servers/atlas.js isTierRefusal), which no role would change.
 */
function isRefused(err) {
  if (!err) return false;
  if (err.code === 13 || err.codeName === 'Unauthorized') return true;
  if (err.code === 8000 || err.codeName === 'AtlasError') return isTierRefusal(err) || /not allowed|not authori[sz]ed|unauthori[sz]ed/i.test(err.message || '');
  return false;
}

/**
 * The refusal in a few words: the server's code name, or its message's first line; an Atlas
 * tier's refusal says it is the tier's, so that it never reads as a missing privilege.
 */
function refusalText(err) {
  const said = String(err.message || err).split('\n')[0];
  if (isTierRefusal(err)) return `this Atlas tier does not allow it: ${said}`;
  return err.codeName && err.codeName !== 'AtlasError' ? err.codeName : said;
}

function assertPrefixed(name, prefix) {
  if (!name.startsWith(prefix)) throw new NotOursError(`database ${name} does not start with ${prefix}: the kit writes only to its own databases`);
}

/** What to say when the user may not use one of the kit's databases at all. */
function notAllowed(name, err) {
  if (isTierRefusal(err)) return new ClassicsError(`the server refused the kit its database ${name} (${refusalText(err)}): no role changes what a tier allows; run the kit on an M10 or larger cluster`, { cause: err });
  return new ClassicsError(`the server refused the kit its database ${name} (${refusalText(err)}): the user needs readWrite on ${name}, or readWriteAnyDatabase`, { cause: err });
}

async function isMarked(db) {
  return Boolean(await db.collection(MARK_COLLECTION).findOne({ _id: MARK_ID }));
}

/** Empties a database: dropDatabase, or each collection where the user may not drop databases. */
async function emptyDatabase(db) {
  try {
    await db.dropDatabase();
  } catch (err) {
    if (!isRefused(err)) throw err;
    // system.* collections are the server's (a readWrite user may not drop them, and the kit
    // makes none); the mark goes last, so a clean-up cut short still leaves the database
    // recognisably the kit's
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => !n.startsWith('system.'));
    for (const name of names.filter((n) => n !== MARK_COLLECTION).concat(names.includes(MARK_COLLECTION) ? [MARK_COLLECTION] : [])) {
      // the driver already takes a missing collection (NamespaceNotFound) as dropped
      await db.collection(name).drop();
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
  try {
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    if (collections.length) {
      if (!(await isMarked(db))) {
        throw new NotOursError(`database ${name} exists and was not created by mongo-classics (no ${MARK_COLLECTION} mark): the kit will not drop or write it`);
      }
      await emptyDatabase(db);
    }
    await markDatabase(db, runId);
  } catch (err) {
    throw isRefused(err) ? notAllowed(name, err) : err;
  }
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
    return `could not drop the kit's database ${name} after the run (${refusalText(err)}); drop it yourself when you are done`;
  }
}

module.exports = {
  claimDatabase, markDatabase, dropOwnedDatabase, emptyDatabase, isRefused, refusalText, MARK_COLLECTION,
};
