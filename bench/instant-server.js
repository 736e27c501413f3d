#!/usr/bin/env node
'use strict';
// A measuring instrument, not a database: a tiny MongoDB wire-protocol responder that answers
// every command at once with a canned reply, so that a client's own cost per operation shows
// with almost no server time in the loop (what a fast mongod over loopback would add is below
// the 50-100 µs it spends per command). It stores nothing: inserts are counted and forgotten, a
// find by _id returns { _id, foo: [1, 2, 3, 4, 5] }, updates and deletes report one document.
// Never point a test at it as a database: a test that passes here proves nothing about a server.
//
// Speaks what the Node driver, libmongoc and mongosh send: the OP_QUERY legacy hello of the
// handshake, and OP_MSG with a kind-0 body and kind-1 document sequences (insert's documents,
// update's updates), honouring moreToCome (a w:0 write gets no reply, as from mongod).
//
// Honest about monitoring, as mongod is: an awaitable hello (one carrying topologyVersion and
// maxAwaitTimeMS, what a driver's streaming monitor sends) is held until maxAwaitTimeMS runs
// out, since this server's topology never changes, and with exhaustAllowed it is answered with
// moreToCome and again every maxAwaitTimeMS, as mongod streams it. So the clients' monitors sit
// idle, as against mongod, instead of looping hot and taking CPU from the clients measured.
// `{ instantServerStats: 1 }` answers how many hellos it answered and since when, so a bench or
// a test can show the monitors idle. In test mode (`record`), it keeps every command document
// it received, document sequences folded back into the body, for tests that compare what two
// clients send.
//
// As a replica set's primary (`replicaSet: NAME`, test mode only): its hello names the set and
// itself as its one member and primary, and every reply carries $clusterTime (advanced by each
// write) and operationTime, as a replica set's do; each command received is recorded with where
// its $clusterTime came from (`clusterTimeSent`: the last this connection was sent, an older one,
// none), so two clients' gossip can be compared without comparing the times themselves.
//
// usage: node bench/instant-server.js [port]   (prints its URI on stdout; 0 picks a free port)
const net = require('node:net');
const { BSON } = require('bson');

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const MORE_TO_COME = 2;
const CHECKSUM_PRESENT = 1;
const EXHAUST_ALLOWED = 1 << 16;

const ZERO = BSON.Long.fromNumber(0);
const PROCESS_ID = new BSON.ObjectId();
let connectionCount = 0;

const ELECTION_ID = new BSON.ObjectId('7fffffff0000000000000001');
const AUTHENTICATION_FAILED = { ok: 0, code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' };

function hello(state) {
  const set = state?.replicaSet ? {
    setName: state.replicaSet, setVersion: 1, electionId: ELECTION_ID, hosts: [state.host], primary: state.host, me: state.host, secondary: false,
  } : {};
  return {
    helloOk: true, ismaster: true, isWritablePrimary: true, ...set,
    topologyVersion: { processId: PROCESS_ID, counter: ZERO },
    maxBsonObjectSize: 16 * 1024 * 1024, maxMessageSizeBytes: 48000000, maxWriteBatchSize: 100000,
    localTime: new Date(), logicalSessionTimeoutMinutes: 30, connectionId: ++connectionCount,
    minWireVersion: 0, maxWireVersion: 21, readOnly: false, ok: 1,
  };
}

function emptyCursor(ns) {
  return { cursor: { firstBatch: [], id: ZERO, ns }, ok: 1 };
}

/** The canned reply to one command; `sequences` holds the kind-1 document lists by name. */
function reply(command, sequences, state) {
  const name = Object.keys(command)[0];
  const ns = `${command.$db}.${command[name]}`;
  switch (name.toLowerCase()) {
    case 'hello': case 'ismaster': return hello(state);
    case 'instantserverstats': return { ...state.stats, sinceMs: Date.now() - state.startedAt, ok: 1 };
    case 'buildinfo': return { version: '8.0.0', versionArray: [8, 0, 0, 0], ok: 1 };
    case 'insert': return { n: (command.documents || sequences.documents || []).length, ok: 1 };
    case 'update': return { n: 1, nModified: 1, ok: 1 };
    case 'delete': return { n: 1, ok: 1 };
    case 'find': {
      const id = command.filter && command.filter._id !== undefined ? command.filter._id : 0;
      return { cursor: { firstBatch: [{ _id: id, foo: [1, 2, 3, 4, 5] }], id: ZERO, ns }, ok: 1 };
    }
    case 'aggregate': case 'listcollections': case 'listindexes': return emptyCursor(ns);
    case 'getmore': return { cursor: { nextBatch: [], id: ZERO, ns }, ok: 1 };
    case 'count': return { n: 0, ok: 1 };
    // test mode: a login refused as mongod refuses one (error_codes.yml: AuthenticationFailed)
    case 'saslstart': case 'authenticate': if (state.refuseLogins) return AUTHENTICATION_FAILED; return { ok: 1 };
    default: return { ok: 1 }; // ping, drop, create, createIndexes, killCursors, endSessions, ...
  }
}

function header(length, requestId, opCode) {
  const b = Buffer.allocUnsafe(length);
  b.writeInt32LE(length, 0);
  b.writeInt32LE(0, 4);
  b.writeInt32LE(requestId, 8);
  b.writeInt32LE(opCode, 12);
  return b;
}

function opMsgReply(requestId, doc, flags = 0) {
  const body = BSON.serialize(doc);
  const b = header(21 + body.length, requestId, OP_MSG);
  b.writeUInt32LE(flags, 16);
  b.writeUInt8(0, 20);
  b.set(body, 21);
  return b;
}

function opReply(requestId, doc) {
  const body = BSON.serialize(doc);
  const b = header(36 + body.length, requestId, OP_REPLY);
  b.writeInt32LE(0, 16); // responseFlags
  b.writeBigInt64LE(0n, 20); // cursorID
  b.writeInt32LE(0, 28); // startingFrom
  b.writeInt32LE(1, 32); // numberReturned
  b.set(body, 36);
  return b;
}

function readDocument(msg, at) {
  return BSON.deserialize(msg.subarray(at, at + msg.readInt32LE(at)), { promoteLongs: false });
}

function isHello(command) {
  const name = Object.keys(command)[0].toLowerCase();
  return name === 'hello' || name === 'ismaster';
}

/**
 * An awaitable hello, held as mongod holds it: answered when maxAwaitTimeMS runs out (this
 * server's topology never changes), and with exhaustAllowed answered with moreToCome and then
 * again every maxAwaitTimeMS, until the connection closes.
 */
function holdHello(socket, requestId, command, exhaust, state) {
  const wait = Math.max(0, Number(command.maxAwaitTimeMS));
  const streamed = () => {
    if (socket.destroyed) return;
    state.stats.hellos++;
    state.stats.awaitedHellos++;
    socket.write(opMsgReply(requestId, gossip(socket, hello(state), state), exhaust ? MORE_TO_COME : 0));
    if (exhaust) socket.timers.add(setTimeout(streamed, wait));
  };
  socket.timers.add(setTimeout(streamed, wait));
}

/** Answers one whole message, or nothing when the client asked for no reply. */
function answer(socket, msg, state) {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_QUERY) { // flags, cstring collection name, skip, limit, query document
    let at = msg.indexOf(0, 20) + 1 + 8;
    const query = readDocument(msg, at);
    const command = query.$query || query;
    if (state.received) state.received.push({ opCode, moreToCome: false, command });
    if (isHello(command)) state.stats.hellos++;
    socket.write(opReply(requestId, gossip(socket, reply(command, {}, state), state)));
    return;
  }
  if (opCode !== OP_MSG) return;
  const flags = msg.readUInt32LE(16);
  const end = msg.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let command = null;
  const sequences = {};
  for (let at = 20; at < end;) {
    const kind = msg[at];
    at += 1;
    if (kind === 0) {
      command = readDocument(msg, at);
      at += msg.readInt32LE(at);
    } else {
      const stop = at + msg.readInt32LE(at);
      const nameEnd = msg.indexOf(0, at + 4);
      const documents = [];
      for (let d = nameEnd + 1; d < stop; d += msg.readInt32LE(d)) documents.push(readDocument(msg, d));
      sequences[msg.toString('utf8', at + 4, nameEnd)] = documents;
      at = stop;
    }
  }
  const moreToCome = (flags & MORE_TO_COME) !== 0;
  if (state.received) {
    const received = { opCode, moreToCome, command: { ...command, ...sequences } };
    if (state.replicaSet) received.clusterTimeSent = clusterTimeSource(socket, command.$clusterTime);
    state.received.push(received);
  }
  if (state.replicaSet && /^(insert|update|delete)$/i.test(Object.keys(command)[0])) state.clusterTime += 1;
  // test mode: a write refused once with an error the driver retries a write for
  if (state.failWrites > 0 && !moreToCome && /^(insert|update|delete)$/i.test(Object.keys(command)[0])) {
    state.failWrites -= 1;
    socket.write(opMsgReply(requestId, gossip(socket, RETRYABLE_FAILURE, state)));
    return;
  }
  if (isHello(command) && command.topologyVersion !== undefined && command.maxAwaitTimeMS !== undefined) {
    holdHello(socket, requestId, command, (flags & EXHAUST_ALLOWED) !== 0, state);
    return;
  }
  if (isHello(command)) state.stats.hellos++;
  const doc = reply(command, sequences, state);
  if (!moreToCome) socket.write(opMsgReply(requestId, gossip(socket, doc, state)));
}

/** A write refused with a label that has a driver retry it once (a network error at the server's side). */
const RETRYABLE_FAILURE = { ok: 0, code: 9001, codeName: 'SocketException', errmsg: 'instant server: refused once, to be retried', errorLabels: ['RetryableWriteError'] };

/** A replica set's reply carries the cluster's time (and the operation's); remembered per connection. */
function gossip(socket, doc, state) {
  if (!state.replicaSet) return doc;
  const time = BSON.Timestamp.fromBits(state.clusterTime, Math.floor(state.startedAt / 1000));
  const $clusterTime = { clusterTime: time, signature: { hash: new BSON.Binary(Buffer.alloc(20)), keyId: BSON.Long.fromNumber(0) } };
  socket.clusterTimes.push(state.clusterTime);
  return { ...doc, $clusterTime, operationTime: time };
}

/** Where a command's $clusterTime came from: the last this connection was sent, an older one, another, or none. */
function clusterTimeSource(socket, sent) {
  if (!sent) return 'none';
  const increment = sent.clusterTime?.getLowBits?.();
  const times = socket.clusterTimes;
  if (times.length && increment === times[times.length - 1]) return 'the last on this connection';
  if (times.includes(increment)) return 'an older one of this connection';
  return 'one this connection was not sent';
}

function onConnection(socket, state) {
  socket.clusterTimes = [];
  socket.setNoDelay(true);
  socket.timers = new Set();
  state.stats.connections++;
  let pending = null;
  socket.on('data', (chunk) => {
    let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    while (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
      const length = buf.readInt32LE(0);
      answer(socket, buf.subarray(0, length), state);
      buf = buf.subarray(length);
    }
    pending = buf.length ? buf : null;
  });
  socket.on('close', () => { for (const t of socket.timers) clearTimeout(t); });
  socket.on('error', () => { /* a client that went away */ });
}

/**
 * Starts listening on 127.0.0.1; resolves to { uri, port, stats, received, close() }. With
 * record (test mode), `received` lists every command it got: { opCode, moreToCome, command }.
 * With refuseLogins (test mode), every login is refused with code 18, AuthenticationFailed.
 */
function startInstantServer({ port = 0, record = false, replicaSet = null, refuseLogins = false } = {}) {
  const sockets = new Set();
  const state = {
    replicaSet,
    refuseLogins,
    host: null,
    clusterTime: 1,
    failWrites: 0,
    startedAt: Date.now(),
    stats: { connections: 0, hellos: 0, awaitedHellos: 0 },
    received: record ? [] : null,
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    onConnection(socket, state);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const actual = server.address().port;
      state.host = `127.0.0.1:${actual}`;
      resolve({
        port: actual,
        uri: replicaSet ? `mongodb://127.0.0.1:${actual}/?replicaSet=${replicaSet}` : `mongodb://127.0.0.1:${actual}/`,
        stats: state.stats,
        received: state.received,
        /** Test mode: the next n acknowledged writes are refused with an error the driver retries. */
        failWrites: (n) => { state.failWrites = n; },
        close: () => new Promise((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        }),
      });
    });
  });
}

/**
 * The same server in a process of its own (as every real server is), so that neither the
 * driver's loop nor a shell shares a thread or a CPU account with it: resolves to { uri, close() }.
 */
function startInstantServerProcess() {
  const { spawn } = require('node:child_process');
  const readline = require('node:readline');
  const { trackChild } = require('../orchestrator/processes');
  const child = trackChild(spawn(process.execPath, [__filename, '0'], { stdio: ['ignore', 'pipe', 'inherit'] }));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the instant server exited with code ${code} before it listened`)));
    readline.createInterface({ input: child.stdout }).once('line', (uri) => resolve({
      uri,
      close: () => new Promise((done) => {
        child.removeAllListeners('exit');
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
    }));
  });
}

if (require.main === module) {
  startInstantServer({ port: Number(process.argv[2] || 0) }).then(({ uri }) => {
    process.stdout.write(`${uri}\n`);
  }, (err) => {
    process.stderr.write(`instant-server: ${err.message}\n`);
    process.exit(1);
  });
}

module.exports = { startInstantServer, startInstantServerProcess };
