'use strict';
// mongosh's rules for database and collection names (shell-api helpers), and the BSON options
// mongosh's service provider puts on every driver call (DEFAULT_BASE_OPTIONS): functions are
// serialised, and 64-bit integers come back as Long rather than as lossy numbers.
const { MongoshInvalidInputError, CommonErrors } = require('./errors');

const BASE_OPTIONS = Object.freeze({ serializeFunctions: true, promoteLongs: false });

function isValidDatabaseName(name) {
  return !!name && !/[/\\. "\0]/.test(name);
}

function isValidCollectionName(name) {
  return !!name && !/[$\0]/.test(name);
}

function assertValidDatabaseName(name) {
  if (!isValidDatabaseName(name)) throw new MongoshInvalidInputError(`Invalid database name: ${name}`, CommonErrors.InvalidArgument);
}

function assertValidCollectionName(name) {
  if (!isValidCollectionName(name)) throw new MongoshInvalidInputError(`Invalid collection name: ${name}`, CommonErrors.InvalidArgument);
}

/** The options a driver call gets: mongosh's base options, then the script's own. */
function driverOptions(options) {
  return Object.assign({}, BASE_OPTIONS, options);
}

module.exports = { isValidDatabaseName, isValidCollectionName, assertValidDatabaseName, assertValidCollectionName, driverOptions };
