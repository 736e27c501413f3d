'use strict';
// One class per failure a user can act on: each carries what went wrong and what to do.
// cli.js prints `name: message` and exits with exitCode; a stack only with DEBUG=classics:*.

class ClassicsError extends Error {
  constructor(message, { exitCode = 1, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = this.constructor.name;
    this.exitCode = exitCode;
  }
}

/** Bad input on the command line: nothing has been started. */
class UsageError extends ClassicsError {
  constructor(message) { super(message, { exitCode: 2 }); }
}

/**
 * --format named an output the command does not write (or nothing): its message from its fields,
 * the formats it was given and those the command has.
 */
class UnknownFormatError extends UsageError {
  constructor({ command, format, known }) {
    const named = String(format).split(',').some((f) => f.trim());
    super(`--format ${JSON.stringify(format)}: ${named ? `${command} writes no such output` : 'names no output'}; choose from ${known.join(', ')} (a comma list)`);
    this.command = command;
    this.format = format;
    this.known = known;
  }
}

/** A scenario folder that does not honour the descriptor contract. */
class ScenarioError extends ClassicsError {}

/**
 * A scaling declaration's arithmetic (sizing/expression.js) that cannot be read or computed: an
 * unknown function, a variable without a value, a stray token. Its message says which.
 */
class ExpressionError extends ScenarioError {}

/** A server the kit should start did not come up. */
class ServerStartError extends ClassicsError {}

/** A mongosh script exited non-zero or printed no measurement. */
class ScriptError extends ClassicsError {
  constructor(message, { script, server, stderr } = {}) {
    super(message);
    this.script = script;
    this.server = server;
    this.stderr = stderr;
  }
}

/** --resume on a server whose data no longer match what the results recorded. */
class ResumeMismatchError extends ClassicsError {
  constructor(message) { super(message, { exitCode: 2 }); }
}

/** results.jsonl missing or unreadable. */
class ResultsError extends ClassicsError {}

/** A database with the kit's prefix that the kit did not create (no ownership mark): never touched. */
class NotOursError extends ClassicsError {}

/** Another run holds the lease on a user's server: two runs at once would spoil each other's numbers. */
class ServerBusyError extends ClassicsError {
  constructor(message) { super(message, { exitCode: 2 }); }
}

/**
 * A file of the run's could not be written (a full disk, a read-only folder): one line naming the
 * file and what the system said. The run stops; nothing claims it ended well.
 */
class DiskWriteError extends ClassicsError {
  constructor(file, cause) {
    // "ENOSPC: no space left on device, write" -> "no space left on device (ENOSPC)"
    const said = String(cause.message).replace(/^[A-Z]+: /, '').replace(/, \w+( '.*')?$/, '');
    super(`cannot write ${file}: ${said}${cause.code ? ` (${cause.code})` : ''}`, { cause });
    this.file = file;
  }
}

/** A server the kit started stopped answering (its process gone, or its port refusing). */
class ServerDiedError extends ClassicsError {
  constructor(message, { server, reason, recorded = false } = {}) {
    super(message);
    this.server = server;
    this.reason = reason;
    this.recorded = recorded; // its failure record is written already
  }
}

/** A step that made no progress for longer than its deadline: its shell was stopped. */
class StepStalledError extends ClassicsError {}

/** A lock (orchestrator/lock-file.js) still held by a live process at the waiter's deadline: the holder named. */
class LockTimeoutError extends ClassicsError {
  constructor(lock, holder, timeoutMs) {
    super(`waited ${Math.round(timeoutMs / 1000)} s for ${lock}, held by ${holder}`);
    this.lock = lock;
    this.holder = holder;
  }
}

/**
 * The kit broke a contract of its own (a reason code without words): a bug to report with the
 * line it printed, not something the user can fix.
 */
class InternalError extends ClassicsError {}

/**
 * The server's error codes the kit tells apart, read from an error's `code`, never from its
 * message: Unauthorized (13), AuthenticationFailed (18) and CommandNotFound (59) as
 * src/mongo/base/error_codes.yml names them (FerretDB answers with the same codes); 51300 and 51301, the numbers getDefaultRWConcern's assertNotStandaloneOrShardServer
 * asserts with (src/mongo/db/commands/rwc_defaults_commands.cpp): "not supported on standalone
 * nodes" (no replication) and "not supported on shard nodes" (a shard's member, reached directly).
 */
const SERVER_CODES = Object.freeze({ Unauthorized: 13, AuthenticationFailed: 18, CommandNotFound: 59, standalone: 51300, shardNode: 51301 });

/** An error's server code (a number), or null where it has none (a network error, a plain Error). */
function serverCode(err) {
  const code = Number(err?.code);
  return Number.isInteger(code) ? code : null;
}

/**
 * The server codes an error carries: its own, then its causes' (the driver's
 * MongoServerSelectionError has the server's own error as its cause), outermost first.
 */
function serverCodes(err) {
  const codes = [];
  for (let e = err, depth = 0; e && depth < 8; e = e.cause, depth += 1) {
    const code = serverCode(e);
    if (code !== null) codes.push(code);
  }
  return codes;
}

module.exports = {
  SERVER_CODES, serverCode, serverCodes, InternalError,
  ClassicsError, UsageError, UnknownFormatError, ScenarioError, ExpressionError, ServerStartError, ScriptError, ResultsError, ResumeMismatchError,
  NotOursError, ServerBusyError, DiskWriteError, ServerDiedError, StepStalledError, LockTimeoutError,
};
