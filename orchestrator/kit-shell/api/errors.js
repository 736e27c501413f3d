'use strict';
// The errors a script can meet in the kit's shell. mongosh's own error classes come from
// @mongosh/errors (a tiny package), so their names and "[CODE] message" texts are mongosh's.
// Two are the kit's: KitShellUnsupported, for an API the kit's shell lacks, and ExitRequest, for
// quit(); both pass through a script's try/catch (mongosh's uncatchable marker), so a script can
// neither swallow the one nor keep running after the other.
const { MongoshInvalidInputError, MongoshRuntimeError, MongoshInternalError, MongoshCommandFailed, CommonErrors } = require('@mongosh/errors');
const { UNCATCHABLE, addHiddenDataProperty } = require('./protocol');

/** Something mongosh offers that the kit's shell does not: the script must run in mongosh. */
class KitShellUnsupported extends Error {
  constructor(what) {
    super(`${what} is not in the kit's shell; run this script with --shell mongosh`);
    this.name = 'KitShellUnsupported';
    addHiddenDataProperty(this, UNCATCHABLE, true);
  }
}

/** quit(code) / exit(code): unwinds the script; the shell closes its connections and exits. */
class ExitRequest extends Error {
  constructor(exitCode) {
    super(`exit(${exitCode})`);
    this.name = 'ExitRequest';
    this.exitCode = exitCode;
    addHiddenDataProperty(this, UNCATCHABLE, true);
  }
}

/**
 * mongosh's argument check (shell-api helpers.assertArgsDefinedType), for the types the kit's
 * API checks: each expected entry is true (anything but undefined), a typeof name, or a list of
 * them that may include undefined.
 */
function assertArgsDefinedType(args, expectedTypes, func) {
  args.forEach((arg, i) => {
    const expected = expectedTypes[i];
    const caller = func ? ` (${func})` : '';
    if (arg === undefined) {
      if (expected !== true && Array.isArray(expected) && expected.includes(undefined)) return;
      throw new MongoshInvalidInputError(`Missing required argument at position ${i}${caller}`, CommonErrors.InvalidArgument);
    }
    if (expected === true) return;
    const list = typeof expected === 'string' ? [expected] : expected;
    if (!list.includes(typeof arg)) {
      const wanted = list.filter((e) => e !== undefined).join(' or ');
      throw new MongoshInvalidInputError(`Argument at position ${i} must be of type ${wanted}, got ${typeof arg} instead${caller}`, CommonErrors.InvalidArgument);
    }
  });
}

module.exports = {
  KitShellUnsupported, ExitRequest, assertArgsDefinedType,
  MongoshInvalidInputError, MongoshRuntimeError, MongoshInternalError, MongoshCommandFailed, CommonErrors,
};
