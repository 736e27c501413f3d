'use strict';
// What the kit's shell lacks never becomes a silent difference. Every mongosh method the kit's
// shell does not implement gets a stub that throws KitShellUnsupported naming it (uncatchable,
// so a script's try/catch cannot turn it into a fallback path), and since the stub is a real
// property, db.coll.mapReduce is that stub and never the sub-collection "coll.mapReduce".
// The names are mongosh's own (api/mongosh-api.json, generated from @mongosh/shell-api and
// checked by a test).
const { classes } = require('./mongosh-api.json');
const { KitShellUnsupported } = require('./errors');

function unsupportedMethod(className, method) {
  const stub = function () {
    throw new KitShellUnsupported(`${className}.${method}`);
  };
  Object.defineProperty(stub, 'name', { value: method });
  return stub;
}

/** Puts a stub on proto for each of mongosh's className methods that proto does not have. */
function stubMissingMethods(proto, className) {
  for (const method of classes[className] || []) {
    if (!(method in proto)) {
      Object.defineProperty(proto, method, { value: unsupportedMethod(className, method), writable: true, configurable: true });
    }
  }
  return proto;
}

/** An object standing for a whole mongosh class the kit's shell lacks (rs, sh, sp, config ...). */
function unsupportedObject(className, printed = className) {
  const object = { toString: () => printed };
  for (const method of classes[className] || []) object[method] = unsupportedMethod(className, method);
  return object;
}

/** mongosh's method names of a class (for the kit's own checks and tests). */
function mongoshMethods(className) {
  return classes[className] || [];
}

module.exports = { stubMissingMethods, unsupportedObject, unsupportedMethod, mongoshMethods };
