// Update plan: in every script that records how the server finds a write's document.
/**
 * What the server does to find the document of an update (the explain command at
 * executionStats, which plans and runs the search but writes nothing): { text, stages,
 * keysExamined, docsExamined, scan }. scan is true where every document is read to find it.
 * A server that does not explain updates (FerretDB 2: NotImplemented) is asked for the plan of
 * the find that selects the same document (the update's filter, limit 1), and the text says so.
 */
function updatePlan(dbHandle, collectionName, q, u, upsert) {
  var explain = function (command) {
    // the answer is held before it is returned: a rejected call returned as it is would pass by
    // the catch in mongosh, whose rewriter awaits the call only where its value is used
    var answer;
    try {
      answer = dbHandle.runCommand({ explain: command, verbosity: 'executionStats' });
    } catch (e) {
      answer = { ok: 0, errmsg: e.message };
    }
    return answer;
  };
  var res = explain({ update: collectionName, updates: [{ q: q, u: u, upsert: Boolean(upsert) }] });
  var of = '';
  if (!res.ok) {
    var refused = res.errmsg;
    res = explain({ find: collectionName, filter: q, limit: 1 });
    if (!res.ok) return { text: 'explain refused: ' + refused, stages: null, keysExamined: null, docsExamined: null, scan: null };
    of = 'the equivalent find\'s plan (this server does not explain an update: ' + refused + '): ';
  }
  var planner = res.queryPlanner || {};
  if (planner.winningPlan) {
    // through mongos the plan is the router's (SINGLE_SHARD, SHARD_WRITE, SHARD_MERGE) with each
    // shard's own plan in its shards[] (src/mongo/s/cluster_explain.cpp): every shard's plan is
    // walked, named by its shard, so that a scan on any shard is seen
    var stages = [];
    var walk = function (plan, shard) {
      var node = plan.queryPlan || plan;
      while (node && node.stage) {
        stages.push(shard + node.stage + (node.indexName ? ' ' + node.indexName : ''));
        if (Array.isArray(node.shards)) {
          node.shards.forEach(function (s) { walk(s.winningPlan || {}, (s.shardName || 'a shard') + ': '); });
          return;
        }
        node = node.inputStage || (node.inputStages ? node.inputStages[0] : null);
      }
    };
    walk(planner.winningPlan, '');
    var stats = res.executionStats || {};
    var keys = stats.totalKeysExamined === undefined ? null : Number(stats.totalKeysExamined);
    var docs = stats.totalDocsExamined === undefined ? null : Number(stats.totalDocsExamined);
    return {
      text: of + stages.join(' <- ') + (keys === null ? '' : '; ' + keys + ' keys and ' + docs + ' documents examined'),
      stages: stages, keysExamined: keys, docsExamined: docs,
      scan: stages.some(function (s) { return /COLLSCAN/.test(s); })
    };
  }
  if (planner.Plan) {
    // FerretDB: its backend's plan for the rows it reads (PostgreSQL's EXPLAIN, its nodes from the
    // top down, or SQLite's EXPLAIN QUERY PLAN lines). FerretDB 1.x says whether the filter went
    // with it; FerretDB 2 runs every filter in PostgreSQL (DocumentDB) and has no such field.
    var pushdown = res.filterPushdown;
    var nodes = [];
    var visit = function (n) {
      nodes.push(n['Node Type'] + (n['Index Name'] ? ' on ' + n['Index Name'] : ''));
      (n.Plans || []).forEach(visit);
    };
    if (!Array.isArray(planner.Plan)) visit(planner.Plan);
    var backend = Array.isArray(planner.Plan)
      ? 'SQLite ' + planner.Plan.map(function (line) { return String(line).replace(/^.*detail=/, ''); }).join('; ')
      : 'PostgreSQL ' + nodes.join(' <- ');
    return {
      text: of + 'FerretDB: ' + backend + (pushdown === undefined ? ''
        : pushdown === true ? ', the filter pushed down to the backend' : ', the filter not pushed down: FerretDB reads every document of the collection and matches it itself'),
      stages: [backend], keysExamined: null, docsExamined: null,
      scan: pushdown === false || /Seq Scan|SCAN /.test(backend)
    };
  }
  return { text: of + 'explain gave no plan the script can read: ' + JSON.stringify(planner).slice(0, 200), stages: null, keysExamined: null, docsExamined: null, scan: null };
}
