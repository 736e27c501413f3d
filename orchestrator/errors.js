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

/** A scenario folder that does not honour the descriptor contract. */
class ScenarioError extends ClassicsError {}

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

module.exports = {
  ClassicsError, UsageError, ScenarioError, ServerStartError, ScriptError, ResultsError, ResumeMismatchError,
  NotOursError, ServerBusyError, DiskWriteError, ServerDiedError, StepStalledError,
};
