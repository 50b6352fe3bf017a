import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Engine } from '../engine/engine.ts';
import type { OutboxRow } from '../engine/store/sync-store.ts';
import type { ReplicaIdentity } from './first-pull.ts';
import { isAboutOneOrder, pushBatch } from './push-batch.ts';
import { outboxHead, recordAnswers, recordFailedPush } from '../engine/services/replica/replica-outbox.ts';
import { sendChange, type PushOutcome } from './push-change.ts';
import { UpstreamUnreachable, type UpstreamClient, type UpstreamResponse } from './upstream-client.ts';

export interface PushWindowOptions {
  engine: Engine;
  client: UpstreamClient;
  identity: ReplicaIdentity;
  /** Changes on their way at once, at most. */
  window: number;
  /** Pending changes looked at to choose the next ones (an order's changes queued together are skipped over). */
  scan: number;
  /** Changes sent in one round, at most: the round then lets the others waiting for the mutex in. */
  roundLimit: number;
  /** Answers recorded together (one commit), at least, unless fewer are on their way... */
  group: number;
  /** ...or this long after the first of them came back. */
  groupWaitMs: number;
  running(): boolean;
}

export interface PushRound {
  /** Changes the upstream answered (taken or refused). */
  answered: number;
  /** Something must be sent again: after `retryDelayMs` when the upstream said, else the backoff. */
  retry: boolean;
  retryDelayMs: number | null;
  unreachable: boolean;
  lastError: string | null;
}

type Settled = { row: OutboxRow; outcome: PushOutcome } | { row: OutboxRow; error: unknown };

/**
 * One round of the outbox's pushes, a sliding window: up to `window` changes on their way, the
 * window refilled as answers come back (push-batch.ts chooses them, with the same rules as one
 * batch: never two of an order, a change not about one order alone by itself). The answers that came
 * back together are recorded in one transaction. Any failure ends the round once what is on its way
 * has come back: nothing more is sent, so a failed change is retried (with its key) before anything
 * after it of its order, and the upstream's state for a refusal is read before the next round.
 */
export async function pushRound(options: PushWindowOptions): Promise<PushRound> {
  const { engine, client, identity } = options;
  const round: PushRound = { answered: 0, retry: false, retryDelayMs: null, unreachable: false, lastError: null };
  const inFlight = new Set<number>();
  const settled: Settled[] = [];
  let wake: (() => void) | null = null;
  let launched = 0;
  let stop = false;

  const launch = (row: OutboxRow) => {
    inFlight.add(row.seq);
    launched++;
    sendChange(engine, client, identity, row).then(
      (outcome) => settled.push({ row, outcome }),
      (error: unknown) => settled.push({ row, error }),
    ).finally(() => wake?.());
  };

  // The first pending changes, read once and kept while the round holds the mutex: only the pusher
  // changes a pending row (local writes append after them), so the copy is the queue's head minus
  // what was recorded since. Read again when it has no more to offer, and after a change not about
  // one order alone (a new order's acknowledgement renames it in the later rows).
  const head: { rows: OutboxRow[] | null; shrunk: boolean } = { rows: null, shrunk: false };
  const choose = async (room: number): Promise<OutboxRow[]> => {
    if (head.rows === null) {
      head.rows = await outboxHead(engine, options.scan);
      head.shrunk = false;
    }
    const chosen = pushBatch(head.rows, room, inFlight);
    if (chosen.length === room || !head.shrunk) return chosen;
    head.rows = null;
    return await choose(room);
  };

  for (;;) {
    if (!stop && options.running() && launched < options.roundLimit) {
      const room = Math.min(options.window - inFlight.size, options.roundLimit - launched);
      if (room > 0) for (const row of await choose(room)) await launch(row);
    }
    if (inFlight.size === 0) return round;
    // Answers are recorded together, one commit for them all: once `group` are back (or all that
    // are on their way), or `groupWaitMs` after the first, so that a slow one never holds the others.
    const answerBack = () => new Promise<void>((resolve) => (wake = resolve));
    const enough = () => settled.length >= Math.min(options.group, inFlight.size);
    if (settled.length === 0) await answerBack();
    if (!enough()) {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        wake?.();
      }, options.groupWaitMs);
      while (!late && !enough()) await answerBack();
      clearTimeout(timer);
    }
    wake = null;
    await nextTurn();
    const taken: { row: OutboxRow; response: UpstreamResponse }[] = [];
    const failed: { row: OutboxRow; error: unknown }[] = [];
    const back = settled.splice(0);
    for (const entry of back) {
      if ('error' in entry) {
        failed.push(entry);
        continue;
      }
      const outcome = entry.outcome;
      if (outcome.kind === 'answered') taken.push(outcome);
      else if (outcome.kind === 'conflict') {
        round.answered++;
        stop = true; // its upstream state is read (resolve-conflicts.ts) before the order's next change
      } else {
        round.answered++;
        round.retry = true;
        if (outcome.delayMs !== null) round.retryDelayMs = Math.max(round.retryDelayMs ?? 0, outcome.delayMs);
        await recordFailedPush(engine, entry.row.seq, outcome.reason);
        round.lastError = outcome.reason;
        stop = true;
      }
    }
    round.answered += taken.length;
    failed.push(...await recordAnswers(engine, identity, taken));
    for (const { row, error } of failed) {
      const message = error instanceof Error ? error.message : String(error);
      await recordFailedPush(engine, row.seq, message);
      round.lastError = message;
      if (error instanceof UpstreamUnreachable) round.unreachable = true;
      else round.retry = true;
      stop = true;
    }
    for (const entry of back) inFlight.delete(entry.row.seq);
    const done = new Set(back.map((entry) => entry.row.seq));
    if (back.some((entry) => !isAboutOneOrder(entry.row))) head.rows = null;
    else if (head.rows !== null) {
      head.rows = head.rows.filter((row) => !done.has(row.seq));
      head.shrunk = true;
    }
  }
}
