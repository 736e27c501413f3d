'use strict';
// The raw-socket floor: calibration-ops.js's loops in Node with no driver at all, OP_MSG framed
// by hand on a net.Socket, `bson` serialising, one await per reply: what Node itself costs per
// operation, beside which the kit's shell is measured in `npm run bench`. It sends what the
// driver sends for the same calls (the same command documents, an lsid of its own, ordered
// writes, find with limit 1), opens its connection with an OP_MSG hello, and speaks neither TLS
// nor authentication: the bench runs it on the instant server and on servers the kit started.
// usage: CLASSICS_SHELL_URI=mongodb://host:port/ node bench/raw-socket.js '{"OPS":200,"WARMUP":50,"DB_NAME":"classics_calibration"}'
// prints: {"scenario":"harness","ops","totalMs":{type: ms},"cpuUs":{type: µs}}
const crypto = require('node:crypto');
const net = require('node:net');
const { BSON } = require('bson');
const { SHELL_URI_VARIABLE } = require('../orchestrator/config');
const { timeCalls, runLoopProgram } = require('../orchestrator/run/calibration-loop');

const OP_MSG = 2013;

class RawConnection {
  constructor(socket) {
    this.socket = socket;
    this.requestId = 0;
    this.pending = null;
    this.buffered = null;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (err) => this.pending?.reject(err));
  }

  onData(chunk) {
    let buf = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    while (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
      const length = buf.readInt32LE(0);
      const waiter = this.pending;
      this.pending = null;
      waiter?.resolve(BSON.deserialize(buf.subarray(21, length), { promoteLongs: false }));
      buf = buf.subarray(length);
    }
    this.buffered = buf.length ? buf : null;
  }

  /** Sends command and resolves to its reply document (or throws the server's error). */
  async command(command) {
    const body = BSON.serialize(command);
    const message = Buffer.allocUnsafe(21 + body.length);
    message.writeInt32LE(21 + body.length, 0);
    message.writeInt32LE(++this.requestId, 4);
    message.writeInt32LE(0, 8);
    message.writeInt32LE(OP_MSG, 12);
    message.writeUInt32LE(0, 16);
    message[20] = 0;
    message.set(body, 21);
    const reply = await new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(message);
    });
    if (reply.ok !== 1 || reply.writeErrors) throw new Error(`${Object.keys(command)[0]} failed: ${JSON.stringify(reply)}`);
    return reply;
  }
}

function connect(uri) {
  const { hostname, port } = new URL(uri);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 27017) }, () => resolve(new RawConnection(socket)));
    socket.once('error', reject);
  });
}

async function main({ OPS, WARMUP, DB_NAME }) {
  const connection = await connect(process.env[SHELL_URI_VARIABLE]);
  const hello = await connection.command({ hello: 1, $db: 'admin' });
  const lsid = hello.logicalSessionTimeoutMinutes != null ? { id: new BSON.Binary(crypto.randomBytes(16), BSON.Binary.SUBTYPE_UUID) } : undefined;
  const run = (command) => connection.command(lsid ? { ...command, lsid, $db: DB_NAME } : { ...command, $db: DB_NAME });
  await run({ drop: 'ops' }).catch(() => {});
  await run({ create: 'ops' });
  try {
    return await timeCalls({
      insert: (i) => run({ insert: 'ops', documents: [{ _id: i, foo: [1, 2, 3, 4, 5] }], ordered: true }),
      find: (i) => run({ find: 'ops', filter: { _id: i }, limit: 1 }).then((r) => r.cursor.firstBatch[0] ?? null),
      update: (i) => run({ update: 'ops', updates: [{ q: { _id: i }, u: { $push: { foo: { $each: [6, 7] } } } }], ordered: true }),
      remove: (i) => run({ delete: 'ops', deletes: [{ q: { _id: i }, limit: 1 }], ordered: true }),
    }, { ops: OPS, warmup: WARMUP });
  } finally {
    connection.socket.end();
  }
}

runLoopProgram(main);
