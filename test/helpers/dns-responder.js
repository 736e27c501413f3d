#!/usr/bin/env node
'use strict';
// A DNS server of a few records, for a test's network namespace: it answers SRV, TXT and A
// questions from a JSON table over UDP (RFC 1035's message format, RFC 2782's SRV), NODATA for
// another type of a known name, NXDOMAIN for any other name. It prints "listening" once it is.
//   node dns-responder.js HOST PORT '{"srv": {NAME: [{target, port}]}, "txt": {NAME: [TEXT]}, "a": {NAME: IP}}'
const dgram = require('node:dgram');

const [host, port, recordsText] = process.argv.slice(2);
const records = JSON.parse(recordsText);
const TYPES = { A: 1, TXT: 16, SRV: 33 };

/** A name as DNS labels. */
function labels(name) {
  const parts = name.replace(/\.$/, '').split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** The question's name and where the question ends. */
function question(msg) {
  const names = [];
  let at = 12;
  while (msg[at] !== 0) {
    names.push(msg.subarray(at + 1, at + 1 + msg[at]).toString());
    at += msg[at] + 1;
  }
  return { name: names.join('.').toLowerCase(), type: msg.readUInt16BE(at + 1), end: at + 5 };
}

function answer(type, rdata) {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4); // IN
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}

function answersFor(name, type) {
  if (type === TYPES.SRV) {
    return (records.srv?.[name] || []).map(({ target, port: p }) => {
      const fixed = Buffer.alloc(6);
      fixed.writeUInt16BE(0, 0);
      fixed.writeUInt16BE(0, 2);
      fixed.writeUInt16BE(p, 4);
      return answer(type, Buffer.concat([fixed, labels(target)]));
    });
  }
  if (type === TYPES.TXT) {
    return (records.txt?.[name] || []).map((text) => answer(type, Buffer.concat([Buffer.from([text.length]), Buffer.from(text)])));
  }
  if (type === TYPES.A && records.a?.[name]) return [answer(type, Buffer.from(records.a[name].split('.').map(Number)))];
  return [];
}

const known = (name) => Boolean(records.srv?.[name] || records.txt?.[name] || records.a?.[name]);

const socket = dgram.createSocket('udp4');
socket.on('message', (msg, from) => {
  const { name, type, end } = question(msg);
  const answers = answersFor(name, type);
  const head = Buffer.alloc(12);
  msg.copy(head, 0, 0, 2); // the id
  head.writeUInt16BE(0x8180 | (known(name) ? 0 : 3), 2); // a response, recursion desired and available; NXDOMAIN for an unknown name
  head.writeUInt16BE(1, 4);
  head.writeUInt16BE(answers.length, 6);
  socket.send(Buffer.concat([head, msg.subarray(12, end), ...answers]), from.port, from.address);
});
socket.bind(Number(port), host, () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => process.exit(0));
