// Unacknowledged writes: in every script that replays an article's w:0 writes.
// The articles' shells and drivers sent their writes without waiting for an answer (w:0). A
// server handles one connection's requests one after another (mongod: "A SessionWorkflow can
// only have one WorkItem in progress at a time", src/mongo/transport/README.md), so a command
// sent on the same connection after w:0 writes is answered only once they are applied: the
// barrier below. mongosh's own `db` draws from a pool, where two writes may take two
// connections; the timed writes go on a client of their own whose pool holds one connection.
// Behind several mongos the driver picks a mongos for each operation (a pool of one connection
// per mongos), so the writes and the barrier could reach two: that client is held to one mongos.
// A mongos runs a write before it reads the next request on the connection (its write command
// waits for the shards' answers: src/mongo/s/commands/cluster_write_cmd.cpp), so the barrier
// holds there as on a mongod; the probe below checks it on each server. But a mongos sends a w:0
// write on to the shard as w:1 ("Mongos needs to send to the shard with w > 0 so it will be able
// to see the writeErrors": upgradeWriteConcern, src/mongo/s/write_ops/batch_write_op.cpp), so
// through mongos each w:0 write waits for the hop from mongos to the shard: the probe says so.
// The articles' clients had no retryable writes: an acknowledged retryable write carries a
// txnNumber that the server records in config.transactions, and "writes with write concern 0
// are not retryable" ("Retryable Writes", MongoDB manual), so only the acknowledged side would
// pay; the client of the timed writes turns them off (retryWrites=false), both sides alike.
// A check of what the writes did reads nothing: it writes (an acknowledged update counts what it
// matched) on the writes' own connection, where no read preference moves it to another member.

/** Why the timed writes could not be held to one mongos, once that was tried and failed. */
var notPinned = null;
/** Whether the shell reached a mongos, once asked (throughMongos). */
var viaMongos = null;

/** Whether the shell reached a mongos (its hello says "isdbgrid"). */
function throughMongos() {
  if (viaMongos !== null) return viaMongos;
  var hello = null;
  try {
    hello = db.adminCommand({ hello: 1 });
  } catch (e) { /* a server before 4.4.2 knows only isMaster */ }
  if (!hello || !hello.ok) {
    try { hello = db.adminCommand({ isMaster: 1 }); } catch (e) { hello = null; }
  }
  viaMongos = Boolean(hello && hello.msg === 'isdbgrid');
  return viaMongos;
}

/**
 * Whether the shell's reads go to the primary, where the writes are: the run's read preference
 * (the URI's) is primary or primaryPreferred. A figure of the writes read elsewhere (a
 * secondary's $collStats counts no client write) is not read at all.
 */
function readsFromPrimary() {
  var mongo = db.getMongo();
  var mode = typeof mongo.getReadPrefMode === 'function' ? mongo.getReadPrefMode() : 'primary';
  return !mode || mode === 'primary' || mode === 'primaryPreferred';
}

/**
 * The URI held to one mongos: mongodb+srv keeps one of the hosts DNS lists (srvMaxHosts=1, which
 * the driver and mongosh's resolver both honour), a host list its first host. A load balancer's
 * URI names one host and keeps each connection on one mongos already.
 */
function oneMongos(uri) {
  if (/^mongodb\+srv:/i.test(uri)) {
    var srv = uri.replace(/([?&])srvMaxHosts=[^&]*(&|$)/i, '$1').replace(/[?&]$/, '');
    return /[?&]loadBalanced=true/i.test(srv) ? srv : srv + (srv.indexOf('?') < 0 ? '?' : '&') + 'srvMaxHosts=1';
  }
  var parts = /^(mongodb:\/\/(?:[^@\/?]*@)?)([^\/?]*)(.*)$/.exec(uri);
  return parts ? parts[1] + parts[2].split(',')[0] + parts[3] : uri;
}

/** The URI with an option of its own set, any value it had for that option replaced. */
function withOption(uri, name, value) {
  var rest = uri.replace(new RegExp('([?&])' + name + '=[^&]*(&|$)', 'i'), '$1').replace(/[?&]$/, '');
  return rest + (rest.indexOf('?') < 0 ? '?' : '&') + name + '=' + value;
}

/**
 * A client with a pool of one connection to one server, retryable writes off, connected before
 * any clock starts. Where it cannot be held to one mongos, it is the shell's own URI's, and
 * notPinned says why: the probe then refuses w:0, and acknowledged writes need no barrier.
 */
function ownConnection() {
  var own = db.getMongo().getURI();
  var open = function (uri) {
    var client = new Mongo(withOption(withOption(uri, 'retryWrites', 'false'), 'maxPoolSize', '1'));
    client.getDB('admin').runCommand({ ping: 1 });
    return client;
  };
  var pinned = throughMongos() ? oneMongos(own) : own;
  if (pinned === own) return open(own);
  var client = null;
  try {
    client = open(pinned);
  } catch (e) {
    notPinned = 'the timed writes could not be held to one mongos (' + e.message + '), so a barrier after w:0 writes could reach another';
  }
  return client || open(own);
}

function closeConnection(client) {
  if (!client) return;
  try { client.close(); } catch (e) { /* already closed */ }
}

/** Answered once every write sent before it on this client's one connection is applied. */
function barrier(client) {
  return client.getDB('admin').runCommand({ ping: 1 });
}

/**
 * Whether this server takes w:0 writes as MongoDB does, tried on connections of their own. A
 * server that answers them anyway (FerretDB 1.x) hands the next command the write's reply,
 * which desynchronises the driver; elsewhere 64 w:0 inserts and the barrier must leave all 64
 * applied, counted by an acknowledged update on the same connection. Returns { outcome:
 * 'honoured' (w 0) or 'refused' (w 1), w, reason, viaMongos, retryableWrites (false: the timed
 * writes' client has none) }.
 */
function unacknowledgedWrites(dbName) {
  // a name of its own: the parallel steps' shells probe at the same time
  var probeName = 'unacknowledgedProbe_' + new ObjectId().toHexString();
  var probes = 64;
  var answered = null;
  var counted = null;
  var client = null;
  try {
    client = ownConnection();
    var first = client.getDB(dbName).getCollection(probeName);
    first.drop();
    first.insertOne({ _id: 'reply-check' }, { writeConcern: { w: 0 } });
    sleep(100);
    var reply = barrier(client);
    if (reply.n !== undefined || reply.nModified !== undefined) answered = 'the reply ' + JSON.stringify(reply);
  } catch (e) {
    answered = 'an error (' + e.message + ')';
  }
  closeConnection(client);
  client = null;
  if (answered === null) {
    try {
      client = ownConnection();
      var probe = client.getDB(dbName).getCollection(probeName);
      for (var i = 0; i < probes; i++) probe.insertOne({ _id: i }, { writeConcern: { w: 0 } });
      barrier(client);
      counted = probe.updateMany({ _id: { $type: 'number' } }, { $set: { counted: true } }, { writeConcern: { w: 1 } }).matchedCount;
    } catch (e) {
      counted = 'none (' + e.message + ')';
    }
    closeConnection(client);
  }
  try { db.getCollection(probeName).drop(); } catch (e) { /* nothing to drop */ }
  var said = { viaMongos: throughMongos(), retryableWrites: false };
  if (notPinned !== null) return Object.assign({ outcome: 'refused', w: 1, reason: notPinned + ': the timed writes wait for each answer (w:1)' }, said);
  if (answered !== null) {
    return Object.assign({ outcome: 'refused', w: 1, reason: 'this server answers fire-and-forget (w:0) writes: a command sent after one got ' + answered + ', which desynchronises the driver, so the timed writes wait for each answer (w:1)' }, said);
  }
  if (counted !== probes) {
    return Object.assign({ outcome: 'refused', w: 1, reason: counted + ' of ' + probes + ' w:0 inserts were there when a command sent after them on their connection returned, so the timed writes wait for each answer (w:1)' }, said);
  }
  var sent = said.viaMongos
    ? 'the timed writes are sent to mongos without waiting (w:0), as the article\'s were to their server, and mongos sends each on as w:1 and waits for the shard before it reads the next (w:1 from mongos to the shards)'
    : 'the timed writes are sent without waiting (w:0), as the article\'s were';
  return Object.assign({ outcome: 'honoured', w: 0, reason: sent + '; ' + probes + ' such inserts were all applied when a command sent after them on their connection returned' }, said);
}

/** What a record says of its timed writes: the probe's outcome and why, and whether they went through mongos. */
function writesNote(u) {
  return { outcome: u.outcome, reason: u.reason, viaMongos: u.viaMongos };
}
