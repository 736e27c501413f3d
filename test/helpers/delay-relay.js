#!/usr/bin/env node
'use strict';
// A TCP relay that holds every chunk it forwards for DELAY ms, each way, in order: a slow link
// where the kernel has no netem (tc's network emulator) to make one. It runs on the far side of a
// test's network namespace, between the kit and the server, and prints "listening" once it is.
//   node delay-relay.js LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS
const net = require('node:net');

const [listenHost, listenPort, targetHost, targetPort, delayText] = process.argv.slice(2);
const delayMs = Number(delayText);

/** Writes each chunk from `from` to `to` delayMs after it came, never before the one before it. */
function delayed(from, to) {
  let last = 0;
  from.on('data', (chunk) => {
    const at = Math.max(Date.now() + delayMs, last);
    last = at;
    setTimeout(() => { if (!to.destroyed) to.write(chunk); }, at - Date.now());
  });
  from.on('end', () => setTimeout(() => to.end(), Math.max(0, last - Date.now()) + 1));
  from.on('error', () => to.destroy());
}

const server = net.createServer((client) => {
  client.setNoDelay(true);
  const upstream = net.connect(Number(targetPort), targetHost);
  upstream.setNoDelay(true);
  delayed(client, upstream);
  delayed(upstream, client);
});
server.listen(Number(listenPort), listenHost, () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => process.exit(0));
