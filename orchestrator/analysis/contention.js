'use strict';
// How busy the machine was while a verdict's blocks were timed. The run measures it per block
// (results.schema.json: contention { otherShare, stealShare, cpus, sampledMs }, from /proc/stat:
// the share of the machine's CPU time other processes and steal took over the block's span); on a
// busy machine a CPU-bound ratio grows (docs/measurements/verdict-stability.md), so a verdict
// taken there says so. A block without the field was not measured (a run from before, or no
// /proc/stat), which is said as such, never read as quiet.
const { median } = require('../results/repeats');

/** The machine was busy during a verdict's blocks where the median block's other share is at least this: one core of 2 at half, or a quarter of the machine. */
const BUSY_SHARE = 0.25;


/**
 * The contention of the blocks a verdict rests on: { medianOtherShare, maxOtherShare,
 * medianStealShare, blocks (measured), of (all blocks), busy }, or null where no block was measured.
 */
function contentionOf(blocks) {
  const measured = blocks.filter((b) => Number.isFinite(b?.contention?.otherShare));
  if (!measured.length) return null;
  const other = measured.map((b) => b.contention.otherShare);
  const steal = measured.map((b) => b.contention.stealShare).filter(Number.isFinite);
  const medianOtherShare = median(other);
  return {
    medianOtherShare, maxOtherShare: Math.max(...other), medianStealShare: steal.length ? median(steal) : null,
    blocks: measured.length, of: blocks.length, busy: medianOtherShare >= BUSY_SHARE,
  };
}

/** The busy-machine reason where the blocks were taken on a busy machine, else null. */
function busyReason(contention) {
  if (!contention?.busy) return null;
  return { code: 'busy-machine', medianOtherShare: contention.medianOtherShare, maxOtherShare: contention.maxOtherShare, blocks: contention.blocks };
}

/**
 * How busy the machine was over a whole run, for the report's header: its counted blocks'
 * contention, and the run's own total where its end record carries one ({ otherShare, ... }).
 */
function runContention(blocks, end) {
  const ofBlocks = contentionOf(blocks.filter((b) => !b.warmup));
  const whole = Number.isFinite(end?.contention?.otherShare) ? end.contention : null;
  if (!ofBlocks && !whole) return null;
  return { ...(ofBlocks || { medianOtherShare: null, maxOtherShare: null, blocks: 0, of: 0, busy: false }), run: whole };
}

module.exports = { contentionOf, busyReason, runContention, BUSY_SHARE };
