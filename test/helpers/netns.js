'use strict';
// A server far away, made on this machine: a network namespace of the test's own, joined to this
// one by a veth pair, with a round trip of delayMs between the two sides. The delay is tc's netem
// on both ends of the pair where the kernel has it (half each way); where it has not
// (CONFIG_NET_SCH_NETEM unset: "Specified qdisc kind is unknown"), a relay on the far side holds
// every chunk half the delay each way (helpers/delay-relay.js), and the test says which. Needs
// root and iproute2; whyNoNamespace says why not where they are missing.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');

const RELAY = path.join(__dirname, 'delay-relay.js');

function ip(...args) {
  return execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

function errText(err) {
  return String(err.stderr || err.message).trim().split('\n')[0];
}

/** Why this machine cannot make a namespace of the test's own, or null where it can. */
function whyNoNamespace() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'making a network namespace needs root';
  const probe = `c34probe${process.pid % 100000}`;
  try {
    ip('netns', 'add', probe);
  } catch (err) {
    return err.code === 'ENOENT' ? 'iproute2\'s ip is not installed' : `ip netns add failed: ${errText(err)}`;
  }
  try { ip('netns', 'del', probe); } catch { /* gone */ }
  return null;
}

/**
 * Makes the namespace and the link, with the delay on it. Returns { name, hostIp, farIp, delay
 * ('netem' or 'relay'), why (where relay: why not netem), spawnInside(cmd, args, opts),
 * listenOn(port): where a server inside should listen, farUri(port): the URI the kit reaches it
 * by (through the relay where there is one, which it starts), close() }.
 */
async function makeFarNamespace({ delayMs }) {
  const id = process.pid % 100000;
  const name = `c34ns${id}`;
  const hostDev = `c34h${id}`;
  const farDev = `c34f${id}`;
  const subnet = `10.${200 + (id % 50)}.${Math.floor(id / 50) % 250}`;
  const hostIp = `${subnet}.1`;
  const farIp = `${subnet}.2`;
  const children = [];
  const close = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => { setTimeout(resolve, 300); });
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    try { ip('link', 'del', hostDev); } catch { /* went with the namespace */ }
    try { ip('netns', 'del', name); } catch { /* not made */ }
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostDev, 'type', 'veth', 'peer', 'name', farDev);
    ip('link', 'set', farDev, 'netns', name);
    ip('addr', 'add', `${hostIp}/30`, 'dev', hostDev);
    ip('link', 'set', hostDev, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${farIp}/30`, 'dev', farDev);
    ip('netns', 'exec', name, 'ip', 'link', 'set', farDev, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (err) {
    await close();
    throw new Error(`could not make the namespace: ${errText(err)}`);
  }
  let delay = 'netem';
  let why = null;
  const half = `${delayMs / 2}ms`;
  try {
    execFileSync('tc', ['qdisc', 'add', 'dev', hostDev, 'root', 'netem', 'delay', half], { stdio: ['ignore', 'pipe', 'pipe'] });
    ip('netns', 'exec', name, 'tc', 'qdisc', 'add', 'dev', farDev, 'root', 'netem', 'delay', half);
  } catch (err) {
    delay = 'relay';
    why = `tc netem: ${errText(err)}`;
    try { execFileSync('tc', ['qdisc', 'del', 'dev', hostDev, 'root'], { stdio: 'ignore' }); } catch { /* none added */ }
  }
  const spawnInside = (cmd, args, opts = {}) => {
    const child = spawn('ip', ['netns', 'exec', name, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    children.push(child);
    return child;
  };
  // with a relay, a server inside listens on the namespace's loopback and the relay on its link
  const listenOn = (port) => (delay === 'relay' ? `127.0.0.1:${port}` : `${farIp}:${port}`);
  const farUri = async (port) => {
    if (delay !== 'relay') return `mongodb://${farIp}:${port}/`;
    const relayPort = port + 1;
    const relay = spawnInside(process.execPath, [RELAY, farIp, String(relayPort), '127.0.0.1', String(port), String(delayMs / 2)]);
    await new Promise((resolve, reject) => {
      let out = '';
      relay.stdout.on('data', (d) => { out += d; if (out.includes('listening')) resolve(); });
      relay.on('exit', (code) => reject(new Error(`the relay exited (${code})`)));
    });
    return `mongodb://${farIp}:${relayPort}/`;
  };
  return { name, hostIp, farIp, delay, why, spawnInside, listenOn, farUri, close, tmp: () => fs.mkdtempSync(path.join(os.tmpdir(), 'classics-far-')) };
}

/**
 * A namespace with its loopback alone, and files of its own in place of /etc's (resolv.conf,
 * hosts): `ip netns exec` mounts /etc/netns/NAME/FILE over /etc/FILE for what it runs, so a
 * program inside asks the resolver the test names, as the system's own resolver would. Returns {
 * name, spawnInside(cmd, args, opts), close() }.
 */
function makeLoopbackNamespace({ etc = {} } = {}) {
  const name = `c34dns${process.pid % 100000}`;
  const etcDir = path.join('/etc/netns', name);
  const children = [];
  const close = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => { setTimeout(resolve, 300); });
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    try { ip('netns', 'del', name); } catch { /* not made */ }
    fs.rmSync(etcDir, { recursive: true, force: true });
  };
  try {
    fs.mkdirSync(etcDir, { recursive: true });
    for (const [file, text] of Object.entries(etc)) fs.writeFileSync(path.join(etcDir, file), text);
    ip('netns', 'add', name);
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (err) {
    close();
    throw new Error(`could not make the namespace: ${errText(err)}`);
  }
  const spawnInside = (cmd, args, opts = {}) => {
    const child = spawn('ip', ['netns', 'exec', name, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    children.push(child);
    return child;
  };
  return { name, spawnInside, close };
}

/** Resolves once a child printed `word` on its stdout; rejects if it exits first. */
function printed(child, word) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => { out += d; if (out.includes(word)) resolve(); });
    child.on('exit', (code) => reject(new Error(`exited (${code}) before it said ${word}`)));
  });
}

module.exports = { whyNoNamespace, makeFarNamespace, makeLoopbackNamespace, printed };
