'use strict';
// print(), printjson() and the printed value of the last --eval, through mongosh's own
// formatter (@mongosh/cli-repl's format-output) with the options mongosh's CLI gives it when its
// output is not a terminal: inspect depth 6 and compact 3 from its config defaults, no colours;
// printjson at full depth, one key per line. An API object prints as mongosh prints it (a
// database as its name, a result as its fields, a cursor as its next 20 documents), through the
// same asPrintable / shellApiType symbols shell-api uses.
const { SHELL_API_TYPE, AS_PRINTABLE } = require('./protocol');

// mongosh's CliUserConfig defaults (inspectDepth, inspectCompact) as its REPL applies them
const CLI_FORMAT = Object.freeze({ compact: 3, depth: 6, showStackTraces: false });
const PRINT = Object.freeze({ allowControlCharacters: true });
const PRINTJSON = Object.freeze({ allowControlCharacters: true, compact: false, depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });

let formatter = null;
/** Loaded on the first print (11 ms): a script that prints nothing does not pay for it. */
function formatOutput(...args) {
  formatter ??= require('@mongosh/cli-repl/lib/format-output');
  return formatter.formatOutput(...args);
}

function isThenable(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
}

/**
 * shell-api's toShellResult: { type, printable }, or a promise of it when the value is a promise
 * or its printable form needs the server (a cursor fetches the documents it shows).
 */
function toShellResult(value) {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return { type: null, printable: value };
  if (isThenable(value)) return Promise.resolve(value).then(toShellResult);
  const type = value[SHELL_API_TYPE] ?? null;
  if (typeof value[AS_PRINTABLE] !== 'function') return { type, printable: value };
  const printable = value[AS_PRINTABLE]();
  if (isThenable(printable)) return printable.then((p) => ({ type, printable: p }));
  return { type, printable };
}

/** cli-repl's isErrorLike: what its writer prints as an error rather than a value. */
function isErrorLike(value) {
  return !!value && typeof value === 'object' && (value[SHELL_API_TYPE] ?? null) === null &&
    ((value.message !== undefined && typeof value.stack === 'string') || (value.code !== undefined && value.errmsg !== undefined));
}

/** Formats shell results as mongosh's onPrint joins them. */
function formatResults(results, colors, extra) {
  return results.map((r) => formatOutput({ type: r.type, value: r.printable }, { colors, ...CLI_FORMAT, ...extra })).join(' ');
}

/**
 * print/printjson for one output stream. Each writes at once when its arguments can be shown
 * without the server, else when they are ready; either way it returns what formatting needed,
 * a promise only in the second case.
 */
function createPrinter(output) {
  const colors = !!(output.isTTY && (output.getColorDepth?.() ?? 0) > 1);
  const write = (text) => output.write(`${text}\n`);

  function emit(args, extra) {
    const results = args.map(toShellResult);
    if (!results.some(isThenable)) {
      write(formatResults(results, colors, extra));
      return undefined;
    }
    return Promise.all(results).then((ready) => { write(formatResults(ready, colors, extra)); });
  }

  return {
    print: (...args) => emit(args, PRINT),
    printjson: (...args) => emit(args, PRINTJSON),
    /** shell-bson's warnings (NumberLong(5) ...), printed as shell-api prints them. */
    printWarning: (message) => emit([`Warning: ${message}`], PRINT),
    /** What mongosh writes for the last --eval's value (cli-repl's writer, full depth). */
    async formatEvalResult(value) {
      if (isErrorLike(value)) {
        formatter ??= require('@mongosh/cli-repl/lib/format-output');
        const error = { ...value, message: value.message || value.errmsg, name: value.name || 'MongoshInternalError', stack: value.stack, cause: value.cause };
        return formatter.formatError(error, { colors, ...CLI_FORMAT });
      }
      const result = await toShellResult(value);
      return formatOutput({ type: result.type, value: result.printable }, { colors, ...CLI_FORMAT, depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
    },
  };
}

module.exports = { createPrinter, toShellResult, formatOutput, CLI_FORMAT };
