'use strict';
// What a run of two paired servers must show (run/pairs.js): their blocks of a step one at a
// time, in each round's drawn order, both servers in every round.
const assert = require('node:assert/strict');

/** Every block of a step on these servers, in the order they started. */
function inTime(run, step, servers) {
  return run.blocks.filter((b) => b.step === step && servers.includes(b.server)).sort((a, b) => a.startedAt - b.startedAt);
}

/**
 * Asserts that two servers' blocks of a step ran one at a time (each began once the one before
 * it had ended), in each round's drawn order (round by round, place by place, the warm-up round 0
 * first where the run made one), both servers in every round of the step's rounds (as its blocks
 * record them), perRound blocks of each. Returns
 * the blocks in time.
 */
function assertTakingTurns(run, step, servers, { perRound = 1 } = {}) {
  const blocks = inTime(run, step, servers);
  assert.ok(blocks.length > 0, `${step}: no blocks`);
  const rounds = blocks[0].rounds;
  assert.ok(Number.isInteger(rounds) && blocks.every((b) => b.rounds === rounds), `${step}: the blocks record one number of rounds`);
  const first = run.run.params.warmupBlocks ? 0 : 1;
  assert.equal(blocks.length, (rounds + 1 - first) * perRound * servers.length, `${step}: ${blocks.length} blocks`);
  for (let i = 1; i < blocks.length; i++) {
    const [a, b] = [blocks[i - 1], blocks[i]];
    assert.ok(b.startedAt >= a.endedAt, `${step}: ${b.server} round ${b.round} began before ${a.server} round ${a.round} had ended`);
    assert.ok(b.round > a.round || (b.round === a.round && b.position === a.position + 1),
      `${step}: ${b.server} round ${b.round} place ${b.position} came after ${a.server} round ${a.round} place ${a.position}`);
  }
  for (let r = first; r <= rounds; r++) {
    const round = blocks.filter((b) => b.round === r);
    for (const server of servers) assert.equal(round.filter((b) => b.server === server).length, perRound, `round ${r}: ${server}'s blocks`);
  }
  return blocks;
}

module.exports = { inTime, assertTakingTurns };
