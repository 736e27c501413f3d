#!/usr/bin/env node
'use strict';
// A measuring instrument, not a database: a tiny MongoDB wire-protocol responder that answers
// every command at once with a canned reply, so that a client's own cost per operation shows
// with almost no server time in the loop (what a fast mongod over loopback would add is below
// the 50-100 µs it spends per command). It stores nothing: inserts are counted and forgotten, a
// find by _id returns { _id, foo: [1, 2, 3, 4, 5] }, updates and deletes report one document.
// Never point a test at it: a test that passes here proves nothing about a server.
//
// Speaks what the Node driver sends: the OP_QUERY legacy hello of the handshake, and OP_MSG
// with a kind-0 body and kind-1 document sequences (insert's documents, update's updates),
// honouring moreToCome (a w:0 write gets no reply, as from mongod).
//
// usage: node bench/instant-server.js [port]   (prints its URI on stdout; 0 picks a free port)
const net = require('node:net');
const { BSON } = require('bson');

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const MORE_TO_COME = 2;
const CHECKSUM_PRESENT = 1;

const ZERO = BSON.Long.fromNumber(0);
const PROCESS_ID = new BSON.ObjectId();
let connectionCount = 0;

function hello() {
  return {
    helloOk: true, ismaster: true, isWritablePrimary: true,
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
function reply(command, sequences) {
  const name = Object.keys(command)[0];
  const ns = `${command.$db}.${command[name]}`;
  switch (name.toLowerCase()) {
    case 'hello': case 'ismaster': return hello();
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

function opMsgReply(requestId, doc) {
  const body = BSON.serialize(doc);
  const b = header(21 + body.length, requestId, OP_MSG);
  b.writeUInt32LE(0, 16);
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

/** Answers one whole message, or nothing when the client asked for no reply. */
function answer(socket, msg) {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_QUERY) { // flags, cstring collection name, skip, limit, query document
    let at = msg.indexOf(0, 20) + 1 + 8;
    const query = readDocument(msg, at);
    socket.write(opReply(requestId, reply(query.$query || query, {})));
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
  const doc = reply(command, sequences);
  if (!(flags & MORE_TO_COME)) socket.write(opMsgReply(requestId, doc));
}

function onConnection(socket) {
  socket.setNoDelay(true);
  let pending = null;
  socket.on('data', (chunk) => {
    let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    while (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
      const length = buf.readInt32LE(0);
      answer(socket, buf.subarray(0, length));
      buf = buf.subarray(length);
    }
    pending = buf.length ? buf : null;
  });
  socket.on('error', () => { /* a client that went away */ });
}

/** Starts listening on 127.0.0.1; resolves to { uri, port, close() }. */
function startInstantServer({ port = 0 } = {}) {
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const actual = server.address().port;
      resolve({
        port: actual,
        uri: `mongodb://127.0.0.1:${actual}/`,
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
