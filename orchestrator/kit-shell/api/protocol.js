'use strict';
// The conventions the kit's shell shares with mongosh's: the symbols that mongosh's async
// rewriter and printer look for, and the one wrapper every asynchronous API call goes through.
// They are mongosh's own global symbols (Symbol.for), so a value made here prints and awaits
// exactly like one made by @mongosh/shell-api.

/** On a promise: the rewritten script awaits it implicitly (async-rewriter2's contract). */
const SYNTHETIC_PROMISE = Symbol.for('@@mongosh.syntheticPromise');
/** On an async iterable: `for (const d of cursor)` in a script iterates it with awaits. */
const SYNTHETIC_ASYNC_ITERABLE = Symbol.for('@@mongosh.syntheticAsyncIterable');
/** On an error: the rewritten script's try/catch and finally let it pass. */
const UNCATCHABLE = Symbol.for('@@mongosh.uncatchable');
/** The shell type of a value ('InsertOneResult', 'ExplainOutput', ...), which picks its printer. */
const SHELL_API_TYPE = Symbol.for('@@mongosh.shellApiType');
/** A method giving what print() shows for an API object (a database prints as its name). */
const AS_PRINTABLE = Symbol.for('@@mongosh.asPrintable');

function addHiddenDataProperty(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: false, writable: true, configurable: true });
  return target;
}

// Whether the event loop has gone round (reached its check phase) since the latest call began.
let loopTurned = true;
let watcherPending = false;
function markLoopTurned() {
  watcherPending = false;
  loopTurned = true;
}

/**
 * Runs one asynchronous API call with mongosh's event-loop behaviour and marks its promise for
 * implicit await. mongosh's returnsPromise decorator yields one turn of the event loop
 * (setImmediate) after every call, so timers and socket events are served between a script's
 * operations even when an operation needs no reply (a w:0 write, a document already buffered).
 * The same guarantee here costs no extra turn where one already happened: a one-shot immediate
 * armed as the call begins records whether the loop went round while the call waited for the
 * server; only a call that finished without the loop turning yields, as in mongosh. (mongosh's
 * extra turn after a reply would add a poll and a check phase to the timed call; between two
 * operations the loop turns at least once either way.) The mark is a plain property, a tenth
 * of the cost of mongosh's non-enumerable one; a rewritten script never holds an unawaited
 * promise that could show the difference. mapResult, if given, turns the driver's result into
 * the shell's (it must be a function made once, not per call).
 */
function shellCall(promise, mapResult) {
  loopTurned = false;
  if (!watcherPending) {
    watcherPending = true;
    setImmediate(markLoopTurned);
  }
  const settled = promise.then(mapResult === undefined ? afterCall : afterCallMapping(mapResult), afterError);
  settled[SYNTHETIC_PROMISE] = true;
  return settled;
}

/**
 * shellCall for a call whose answer the caller reports with noteSocketEvent() as it arrives (the
 * lean path's replies, api/lean.js): a socket event is served in the loop's poll phase, after
 * the check phase and the timers the loop went through since the call began, so the loop has
 * turned by then and no immediate need be armed to find out. A call answered without one (a w:0
 * write, a reply already read) yields a turn as any other.
 */
function shellSocketCall(promise, mapResult) {
  loopTurned = false;
  const settled = promise.then(mapResult === undefined ? afterCall : afterCallMapping(mapResult), afterError);
  settled[SYNTHETIC_PROMISE] = true;
  return settled;
}

/** A socket event answered the current call: the event loop has turned since it began. */
function noteSocketEvent() {
  loopTurned = true;
}

// The handlers are made once (per result mapper), so a call allocates one promise and no closure.
function afterCall(value) {
  return loopTurned ? value : new Promise((resolve) => { setImmediate(resolve, value); });
}
function afterError(error) {
  if (loopTurned) throw error;
  return new Promise((resolve, reject) => { setImmediate(reject, error); });
}
const mappingHandlers = new Map();
function afterCallMapping(mapResult) {
  let handler = mappingHandlers.get(mapResult);
  if (handler === undefined) {
    handler = (value) => afterCall(mapResult(value));
    mappingHandlers.set(mapResult, handler);
  }
  return handler;
}

/** A value that is already there, as a call the script will await (mongosh's async API shape). */
function shellValue(value) {
  return shellCall(Promise.resolve(value));
}

module.exports = {
  SYNTHETIC_PROMISE, SYNTHETIC_ASYNC_ITERABLE, UNCATCHABLE, SHELL_API_TYPE, AS_PRINTABLE,
  addHiddenDataProperty, shellCall, shellSocketCall, noteSocketEvent, shellValue,
};
