// Paired servers: in trade-candles' load.js and read.js.
// The kit's zstd questions compare two servers (mongod:zstd against mongod:none). Timed one after
// the other, a drift of the machine would land on one of them; so the kit runs this script on
// both at once, telling each the other's name (PARTNER), its own (SERVER_NAME) and one SEED, and
// their blocks take turns. Each round's blocks, both servers', run in one order drawn alike on
// both (roundOrders over every block of the round); before each of its blocks a script waits
// until the partner's last block before it in that order has ended: the kit marks the n-th block
// line a server prints in round k as `k:<server>#n` in the other's turns collection. The two meet
// (round 0, by a name of its own) before the first block, once each has set up, and again (round
// ROUNDS + 1) after the last, so neither one's set-up or summing-up runs during the other's timed
// blocks. Pasted alone (PARTNER null) a round holds this server's blocks only, and nothing waits.

/** Each round's blocks, both servers' where paired, in one drawn order: [[{ server, variant }, ...], ...]. */
function serverRounds(variants, rounds, seed) {
  var servers = PARTNER ? [SERVER_NAME, PARTNER].sort() : [SERVER_NAME];
  var blocks = [];
  servers.forEach(function (server) {
    variants.forEach(function (variant) { blocks.push({ server: server, variant: variant }); });
  });
  return roundOrders(blocks, rounds, seed);
}

/**
 * The partner's block that must have ended before this server's block at `index` (0-based) of
 * runs[at] (the rounds in the order they run, roundsToRun's, a warm-up round first where there is
 * one): its last one before it in that round, else its last one of the round before. { round,
 * variant } as partnerTurn takes them, or null where none comes before.
 */
function partnerBlockBefore(runs, at, index) {
  var partners = function (blocks) { return blocks.filter(function (b) { return b.server === PARTNER; }).length; };
  var before = partners(runs[at].order.slice(0, index));
  if (before > 0) return { round: runs[at].round, variant: PARTNER + '#' + before };
  if (at > 0) return { round: runs[at - 1].round, variant: PARTNER + '#' + partners(runs[at - 1].order) };
  return null;
}

/** Where paired, waits until the partner's block before this one has ended. */
function awaitPartner(runs, at, index) {
  if (!PARTNER) return;
  var turn = partnerBlockBefore(runs, at, index);
  if (turn) partnerTurn(turn.round, turn.variant, true);
}

/** Where paired, waits for the partner at a meeting: round 0 before the first block, ROUNDS + 1 after the last. */
function meetPartner(round) {
  if (PARTNER) partnerTurn(round, PARTNER + '#meet', true);
}
