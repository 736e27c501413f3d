'use strict';
// The kit's shell's parts that need no server: the list of mongosh's methods it stubs, the Node
// built-ins it makes globals, its arguments, the sizes it runs without the rewriter, and its lean
// path's bytes held to the driver's (its OpMsgRequest framing, its reply decoding), and how the
// kit sums which path took a step's calls.
const assert = require('node:assert/strict');
const vm = require('node:vm');
const { collectMongoshApiNames } = require('../../orchestrator/kit-shell/tools/mongosh-api-names');
const stored = require('../../orchestrator/kit-shell/api/mongosh-api.json');
const { nodeBuiltinModules } = require('../../orchestrator/kit-shell/context');
const { parseArgs } = require('../../orchestrator/kit-shell/cli');
const { splitLiteralVars } = require('../../orchestrator/kit-shell/literal-vars');
const { defineVariables, combineCalls } = require('../../orchestrator/run/shells');
const { frame, replyDocument } = require('../../orchestrator/kit-shell/api/lean');

describe('the kit\'s shell', () => {
  it('knows every method of the installed mongosh (re-run tools/mongosh-api-names.js after an upgrade)', () => {
    assert.deepEqual(stored, collectMongoshApiNames());
  });

  it('makes the same Node built-ins globals as mongosh (node:repl\'s list)', () => {
    assert.deepEqual(nodeBuiltinModules(), require('node:repl').builtinModules.filter((n) => !n.startsWith('_')));
  });

  it('takes the arguments the kit gives mongosh, and refuses an option it lacks', () => {
    assert.deepEqual(parseArgs(['--nodb', '--quiet', '--norc', '--eval', 'x', '--file', 'a.js']),
      { evals: ['x'], files: ['a.js'], connectionSpecifier: null, nodb: true });
    assert.throws(() => parseArgs(['--tls']), /KitShellUnsupported|--tls/);
  });

  it('runs the run\'s sizes as they stand and leaves the rest to the rewriter', () => {
    const vars = { DOCS: 1001, NAME: 'a "b";', LIST: [1, { x: 2 }] };
    const code = `${defineVariables(vars)} db = connect(process.env.X);`;
    const { declarations, rest } = splitLiteralVars(code);
    assert.equal(rest.trim(), 'db = connect(process.env.X);');
    const context = vm.createContext({});
    vm.runInContext(declarations, context);
    assert.deepEqual(JSON.parse(JSON.stringify({ DOCS: context.DOCS, NAME: context.NAME, LIST: context.LIST })), vars);
    assert.equal(splitLiteralVars('var x = f(); var y = 1;').declarations, '');
  });

  it('frames a command as the driver\'s OpMsgRequest does (w:0 as moreToCome), byte for byte', () => {
    const { BSON } = require('mongodb');
    const { OpMsgRequest } = require('mongodb/lib/cmap/commands');
    const lsid = { id: new BSON.Binary(Buffer.alloc(16, 7), BSON.Binary.SUBTYPE_UUID) };
    const commands = [
      [{ insert: 'c', documents: [{ _id: 1, f() { return 1; }, u: undefined, l: BSON.Long.fromNumber(5) }], ordered: true, lsid }, false],
      [{ update: 'c', updates: [{ q: { _id: 1 }, u: { $push: { a: { $each: [6, 7] } } }, upsert: true }], ordered: true, writeConcern: { w: 0 } }, true],
      [{ find: 'c', filter: { _id: 'x' }, projection: { a: 1 }, limit: 1, lsid }, false],
    ];
    const serializeOptions = { checkKeys: false, serializeFunctions: true, ignoreUndefined: false };
    for (const [command, moreToCome] of commands) {
      const theirs = Buffer.concat(new OpMsgRequest('d', { ...command }, { ...serializeOptions, moreToCome }).toBin());
      const ours = frame({ ...command, $db: 'd' }, moreToCome, serializeOptions);
      theirs.writeInt32LE(ours.readInt32LE(4), 4); // the request ids come from the same counter
      assert.deepEqual(ours, theirs, Object.keys(command)[0]);
    }
  });

  it('decodes a reply as the driver\'s MongoDBResponse.toObject does with mongosh\'s options (Longs kept)', () => {
    const { BSON } = require('mongodb');
    const { MongoDBResponse } = require('mongodb/lib/cmap/wire_protocol/responses');
    const reply = { n: 1, nModified: BSON.Long.fromNumber(1), writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000' }], cursor: { firstBatch: [{ _id: 1, l: BSON.Long.fromNumber(7), d: 1.5, i: new BSON.Int32(2) }], id: BSON.Long.ZERO }, ok: 1 };
    const body = BSON.serialize(reply);
    const message = Buffer.concat([Buffer.alloc(21), body]);
    message.writeInt32LE(message.length, 0);
    message.writeInt32LE(2013, 12);
    const options = { promoteLongs: false, promoteValues: true, promoteBuffers: false, bsonRegExp: false, useBigInt64: false };
    const ours = replyDocument(message, { ...options, validation: { utf8: { writeErrors: false } } });
    assert.deepStrictEqual(ours, MongoDBResponse.make(body).toObject(options));
    assert.ok(ours.cursor.firstBatch[0].l instanceof BSON.Long);
  });

  it('says which path took a step\'s calls, the methods the lean path never takes aside', () => {
    const covered = ['insertOne', 'findOne'];
    const lean = { covered, lean: { insertOne: 3 }, driver: { find: 2 }, why: { find: { 'a cursor': 2 } } };
    const off = { covered, lean: {}, driver: { insertOne: 1 }, why: { insertOne: { 'the lean path is off': 1 } } };
    assert.deepEqual(combineCalls([lean, null, lean]), { path: 'lean', lean: { insertOne: 6 }, driver: { find: 4 }, why: { find: { 'a cursor': 4 } } });
    assert.equal(combineCalls([off]).path, 'driver');
    assert.equal(combineCalls([lean, off]).path, 'mixed');
    assert.equal(combineCalls([{ covered, lean: {}, driver: { find: 1 }, why: {} }]).path, 'driver');
    assert.equal(combineCalls([null]), null);
  });
});

describe('the kit\'s shell connects wherever mongosh does', () => {
  const { resolveSrvUri, trustedCAs, usesTls } = require('../../orchestrator/kit-shell/api/connection');
  const tls = require('node:tls');

  /** A resolver in Node's callback style that answers from records, as the system's would. */
  const resolver = (srv, txt = []) => {
    const asked = [];
    return {
      asked,
      resolveSrv: (name, cb) => { asked.push(['SRV', name]); cb(null, srv); },
      resolveTxt: (name, cb) => { asked.push(['TXT', name]); cb(null, txt); },
    };
  };

  it('resolves mongodb+srv as mongosh does: SRV and TXT through the resolver it is given, srvMaxHosts honoured, TLS on unless the URI says', async () => {
    const dns = resolver([{ name: 'a.c0.classics.test', port: 27017 }, { name: 'b.c0.classics.test', port: 27018 }], [['authSource=admin&replicaSet=rs0']]);
    const uri = await resolveSrvUri('mongodb+srv://u:p@c0.classics.test/classics?appName=x', dns);
    assert.equal(uri, 'mongodb://u:p@a.c0.classics.test,b.c0.classics.test:27018/classics?appName=x&authSource=admin&replicaSet=rs0&tls=true');
    assert.deepEqual(dns.asked, [['SRV', '_mongodb._tcp.c0.classics.test'], ['TXT', 'c0.classics.test']]);
    const one = await resolveSrvUri('mongodb+srv://c0.classics.test/?srvMaxHosts=1&tls=false', resolver([{ name: 'a.c0.classics.test', port: 27017 }, { name: 'b.c0.classics.test', port: 27017 }]));
    assert.match(one, /^mongodb:\/\/[ab]\.c0\.classics\.test\/\?tls=false$/, 'one mongos of the two, as the scripts ask behind several');
    assert.equal(await resolveSrvUri('mongodb://h:1/'), 'mongodb://h:1/', 'any other URI as it is');
  });

  it('falls back from the system\'s resolver to Node\'s, as os-dns-native does for mongosh', () => {
    const { withNodeFallback } = require('os-dns-native');
    assert.equal(typeof withNodeFallback.resolveSrv, 'function');
    assert.equal(typeof withNodeFallback.resolveTxt, 'function');
  });

  it('trusts the system\'s CA certificates beside Node\'s for TLS (system-ca, through devtools-proxy-support), and adds nothing without TLS', async () => {
    assert.equal(usesTls('mongodb://h/?tls=true'), true);
    assert.equal(usesTls('mongodb://h/?ssl=true'), true);
    assert.equal(usesTls('mongodb://h/'), false);
    assert.equal(await trustedCAs('mongodb://h/'), null);
    const ca = await trustedCAs('mongodb://h/?tls=true');
    const count = (ca.match(/-----BEGIN CERTIFICATE-----/g) || []).length;
    assert.ok(count >= tls.rootCertificates.length, `${count} certificates, Node's own alone are ${tls.rootCertificates.length}`);
    assert.ok(ca.includes(tls.rootCertificates[0].trim().split('\n')[1]), 'Node\'s own among them');
  });

  describe('the kit\'s own clients and its shell, as mongosh\'s connection layer reaches a server', () => {
    const fs = require('node:fs');
    const os = require('node:os');
    const path = require('node:path');
    const { connectReaching, isCertificateError, oneMongosUri, withUriOptions } = require('../../orchestrator/servers/reach');
    // a private CA of the user's (the text is never parsed here: no connection is made)
    const PRIVATE_CA = '-----BEGIN CERTIFICATE-----\nMIIBprivate\n-----END CERTIFICATE-----\n';
    const caFile = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-ca-'));
      fs.writeFileSync(path.join(dir, 'ca.pem'), PRIVATE_CA);
      return path.join(dir, 'ca.pem');
    };
    /** A certificate error as the driver gives it: a server selection error over a TLS socket's. */
    const certificateError = () => Object.assign(new Error('Server selection timed out'), {
      name: 'MongoServerSelectionError',
      reason: { servers: new Map([['h:27017', { error: Object.assign(new Error('self-signed certificate in certificate chain'), { name: 'MongoNetworkError', cause: Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }) }) }]]) },
    });

    it('sets allowPartialTrustChain on every client, as mongosh\'s merged options do', async () => {
      const client = await connectReaching('mongodb://h:27017/', {}, async (c) => c);
      assert.equal(client.options.allowPartialTrustChain, true);
      await client.close();
    });

    it('tries once more with the URI\'s private CA alone after a certificate error, as mongosh does; the first error stands if that fails too', async () => {
      const file = caFile();
      const tried = [];
      const client = await connectReaching(`mongodb://h:27017/?tls=true&tlsCAFile=${encodeURIComponent(file)}`, {}, async (c) => {
        tried.push(c.options.ca ?? null);
        if (tried.length === 1) throw certificateError();
        return c;
      });
      assert.equal(tried.length, 2);
      assert.ok(tried[0].includes('MIIBprivate') && (tried[0].match(/BEGIN CERTIFICATE/g) || []).length > 1, 'first: the system\'s certificates beside the private CA');
      assert.equal(tried[1], null, 'then no merged CA: the driver reads the URI\'s tlsCAFile alone');
      assert.equal(client.options.tlsCAFile, file);
      await client.close();
      await assert.rejects(connectReaching(`mongodb://h:27017/?tls=true&tlsCAFile=${encodeURIComponent(file)}`, {}, async () => { throw certificateError(); }), /Server selection timed out/);
      let calls = 0;
      await assert.rejects(connectReaching('mongodb://h:27017/?tls=true', {}, async () => { calls += 1; throw new Error('connect ECONNREFUSED'); }), /ECONNREFUSED/);
      assert.equal(calls, 1, 'any other error is not tried again');
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    });

    it('knows a certificate error wherever the driver wraps it, and nothing else', () => {
      assert.ok(isCertificateError(certificateError()));
      assert.ok(isCertificateError(Object.assign(new Error('x'), { code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' })));
      assert.ok(!isCertificateError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })));
      assert.ok(!isCertificateError(null));
    });

    it('says where the system\'s resolver could not load and Node\'s alone could not resolve an SRV name', async () => {
      const Module = require('node:module');
      const { resolveSrvUri: resolveSrv, systemResolver, resolverProblem } = require('../../orchestrator/servers/reach');
      const load = Module._load;
      Module._load = function (request, ...rest) {
        if (request === 'os-dns-native') throw new Error('Cannot find module \'os-dns-native\'');
        return load.call(this, request, ...rest);
      };
      let resolver;
      try { resolver = systemResolver(); } finally { Module._load = load; }
      assert.equal(resolver, require('node:dns'));
      assert.match(resolverProblem(), /^the system's resolver could not be loaded \(Cannot find module 'os-dns-native'\), so Node's alone was asked$/);
      // Node's resolver, which finds nothing on a network whose DNS only the system's reaches
      const { resolveSrv: nodeResolveSrv } = resolver;
      resolver.resolveSrv = (name, cb) => cb(Object.assign(new Error(`querySrv ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));
      try {
        await assert.rejects(resolveSrv('mongodb+srv://c0.classics.test/', resolver),
          /querySrv ENOTFOUND _mongodb\._tcp\.c0\.classics\.test \(the system's resolver could not be loaded \(Cannot find module 'os-dns-native'\), so Node's alone was asked\)$/);
      } finally {
        resolver.resolveSrv = nodeResolveSrv;
      }
    });

    it('holds a URI to one mongos and sets options on it, as the scripts\' connection', () => {
      assert.equal(oneMongosUri('mongodb://u:p%40ss@a:1,b:2/x?tls=true'), 'mongodb://u:p%40ss@a:1/x?tls=true');
      assert.equal(oneMongosUri('mongodb+srv://c0.abcde.mongodb.net/?w=1'), 'mongodb+srv://c0.abcde.mongodb.net/?w=1&srvMaxHosts=1');
      assert.equal(oneMongosUri('mongodb+srv://c0.abcde.mongodb.net/?loadBalanced=true'), 'mongodb+srv://c0.abcde.mongodb.net/?loadBalanced=true');
      assert.equal(withUriOptions('mongodb://a:1/?maxPoolSize=5', { maxPoolSize: 1, retryWrites: false }), 'mongodb://a:1/?maxPoolSize=1&retryWrites=false');
    });
  });
});
