'use strict';
// mongosh evaluates async-rewriter2's runtime support code in Node's own realm too, replacing
// Array.prototype.forEach/map/sort/..., their typed-array twins and Function.prototype.toString
// with rewritten versions that await a callback's implicit promise. That is what makes
// `db.c.find().toArray().forEach(function (d) { db.x.insertOne(d) })` wait for each insert: the
// array comes from the driver, so it is a main-realm array. But it also slows the driver itself,
// whose every forEach and map then runs the rewritten code (measured: 10-25 µs per operation).
//
// Here each replaced method becomes a dispatcher: a callback made by the script (any function
// whose prototype is not this realm's Function.prototype: the script's own functions come from
// its vm context) goes to the rewritten version, exactly as in mongosh; a callback of the driver
// or of Node (an ordinary function of this realm) goes to the built-in, which behaves the same
// for a callback that returns no implicit promise, at the built-in's speed.
const vm = require('node:vm');
const { MongoshInternalError } = require('./api/errors');

const TypedArray = Object.getPrototypeOf(Uint8Array);
const PATCHED_OBJECTS = [Array.prototype, TypedArray.prototype, Function.prototype, Array, Object];
const MainFunctionPrototype = Function.prototype;
const { getPrototypeOf } = Object;

function snapshot() {
  return PATCHED_OBJECTS.map((target) => new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)])));
}

function fromScript(fn) {
  return typeof fn === 'function' && getPrototypeOf(fn) !== MainFunctionPrototype;
}

/**
 * builtin or rewritten, chosen per call. Fixed parameter lists (no `arguments`, no
 * Reflect.apply) let V8 inline the built-in into the driver's code as before; only reduce and
 * reduceRight look at how many arguments they got, since an absent initial value differs from an
 * undefined one. For the other methods an absent thisArg and an undefined one are the same.
 */
function dispatcher(name, builtin, rewritten) {
  let chooser;
  if (name === 'toString') {
    chooser = function toString() { return fromScript(this) ? rewritten.call(this) : builtin.call(this); };
  } else if (name === 'reduce' || name === 'reduceRight') {
    chooser = function (callback, initial) {
      const fn = fromScript(callback) ? rewritten : builtin;
      return arguments.length < 2 ? fn.call(this, callback) : fn.call(this, callback, initial);
    };
  } else {
    chooser = function (callback, thisArg) {
      return fromScript(callback) ? rewritten.call(this, callback, thisArg) : builtin.call(this, callback, thisArg);
    };
  }
  Object.defineProperty(chooser, 'name', { value: name });
  Object.defineProperty(chooser, 'length', { value: builtin.length });
  return chooser;
}

let installed = null;

/**
 * Evaluates the support code in this realm once, then puts back each method it replaced as a
 * dispatcher between the built-in and the rewritten version. Returns the names replaced.
 */
function installMainRealmSupport(supportCode) {
  if (installed) return installed;
  const before = snapshot();
  // in a strict function scope, as mongosh's contextlessEval (a direct eval in a strict module):
  // the support code's own declarations stay local
  new vm.Script(`(function () { 'use strict';\n${supportCode}\n})();`, { filename: 'async-rewriter2 runtime support' }).runInThisContext();
  const after = snapshot();
  installed = [];
  PATCHED_OBJECTS.forEach((target, i) => {
    for (const [key, descriptor] of after[i]) {
      const original = before[i].get(key);
      if (original && original.value === descriptor.value && original.get === descriptor.get) continue;
      if (!original || typeof original.value !== 'function' || typeof descriptor.value !== 'function') {
        throw new MongoshInternalError(`async-rewriter2's support code changed ${String(key)} in a way the kit's shell does not know`);
      }
      Object.defineProperty(target, key, { ...original, value: dispatcher(String(key), original.value, descriptor.value) });
      installed.push(String(key));
    }
  });
  return installed;
}

module.exports = { installMainRealmSupport, fromScript };
