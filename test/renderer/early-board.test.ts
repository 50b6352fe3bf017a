// The page's early start (src/renderer/src/early-board.ts): the board's snapshot asked for before
// the app's script has run, and the live pushes kept until the app takes them, none lost or reordered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ComandaBridge } from '../../src/shared/screen-contract/contract.ts';
import type { BoardSnapshot, LivePush } from '../../src/shared/screen-contract/kitchen.ts';
import { kitchenBase, startEarlyBoard, startEarlyBrowserBoard, takeEarlyBoard, takeEarlyBrowserBoard } from '../../src/renderer/src/early-board.ts';
import { answerOf } from '../../src/renderer/src/api.ts';
import { createBoardState } from '../../src/renderer/src/state/board-state.ts';
import { deferred, FakeClock, ticket, order } from './state/fakes.ts';

const status = { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null } as const;
const heartbeat = (now: number): LivePush => ({ kind: 'heartbeat', now, status });

function fakeBridge() {
  const listeners = new Set<(push: LivePush) => void>();
  const asked = deferred<{ ok: true; value: BoardSnapshot }>();
  let snapshots = 0;
  const bridge = {
    boardSnapshot: () => {
      snapshots++;
      return asked.promise;
    },
    onLive: (listener: (push: LivePush) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as ComandaBridge;
  return { bridge, asked, push: (p: LivePush) => listeners.forEach((l) => l(p)), snapshots: () => snapshots, listeners: () => listeners.size };
}

test('without a bridge (a browser tab) nothing starts early', () => {
  startEarlyBoard(undefined);
  assert.equal(takeEarlyBoard(), null);
});

test('the snapshot is asked for at once; pushes before the app listens reach it first, in order, then each as it comes', () => {
  const fake = fakeBridge();
  startEarlyBoard(fake.bridge);
  assert.equal(fake.snapshots(), 1);
  fake.push(heartbeat(1));
  fake.push(heartbeat(2));
  const early = takeEarlyBoard();
  assert.ok(early);
  assert.equal(takeEarlyBoard(), null, 'taken once');
  const heard: number[] = [];
  const stop = early.listen((p) => heard.push(p.now));
  assert.deepEqual(heard, [1, 2]);
  fake.push(heartbeat(3));
  assert.deepEqual(heard, [1, 2, 3]);
  assert.equal(fake.listeners(), 1, 'one subscription, handed over');
  stop();
  assert.equal(fake.listeners(), 0);
});

test("the board's first load takes the early snapshot; a later load asks the engine again", async () => {
  const clock = new FakeClock();
  const first = ticket(order());
  const early = deferred<{ ok: true; value: BoardSnapshot }>();
  let asked = 0;
  const snapshot = (tickets: typeof first[]): BoardSnapshot => ({
    restaurant: { id: 'r1', name: 'R', time_zone: 'America/Santiago' },
    locations: [],
    stations: [],
    allergy_words: [],
    tickets,
    day_start: 0,
    now: clock.now,
    cursor: 1,
  });
  const board = createBoardState({
    ...clock.deps,
    firstSnapshot: early.promise.then(answerOf),
    api: {
      boardSnapshot: async () => {
        asked++;
        return snapshot([]);
      },
      transitionOrder: () => Promise.reject(new Error('not in this test')),
    },
  });
  const loading = board.getState().load();
  early.resolve({ ok: true, value: snapshot([first]) });
  await loading;
  assert.equal(asked, 0);
  assert.deepEqual(Object.keys(board.getState().tickets), [first.order.id]);
  await board.getState().load();
  assert.equal(asked, 1);
  assert.deepEqual(Object.keys(board.getState().tickets), []);
});

test("in a browser, the session and the board's snapshot are asked for at once, over the page's own door; taken once", async () => {
  const sent: { url: string; init: RequestInit | undefined }[] = [];
  const answers = new Map([
    ['/kitchen/session', new Response('{"ok":true,"value":{"paired":true}}')],
    ['/kitchen/api/board:snapshot', new Response('{"ok":true,"value":{}}')],
  ]);
  const fetcher = (async (url: string, init?: RequestInit) => {
    sent.push({ url, init });
    return answers.get(url)!;
  }) as unknown as typeof fetch;
  startEarlyBrowserBoard(kitchenBase({ href: 'https://hub.local:4750/kitchen/?pairing=refused' }), fetcher);
  startEarlyBrowserBoard('/kitchen', fetcher);
  assert.deepEqual(
    sent.map((s) => [s.url, s.init?.method ?? 'GET', s.init?.body ?? null, s.init?.credentials, s.init?.cache]),
    [
      ['/kitchen/session', 'GET', null, 'same-origin', 'no-store'],
      ['/kitchen/api/board:snapshot', 'POST', '{}', 'same-origin', 'no-store'],
    ],
    'both at once, once',
  );
  const early = takeEarlyBrowserBoard();
  assert.ok(early);
  assert.equal(takeEarlyBrowserBoard(), null, 'taken once');
  assert.equal(await early.session, answers.get('/kitchen/session'));
  assert.equal(await early.snapshot, answers.get('/kitchen/api/board:snapshot'));
});

test('a request the page sent early that fails is no unhandled rejection while nothing reads it', async () => {
  const unhandled: unknown[] = [];
  const note = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', note);
  try {
    startEarlyBrowserBoard('/kitchen', (async () => {
      throw new TypeError('offline');
    }) as unknown as typeof fetch);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
    const early = takeEarlyBrowserBoard();
    await assert.rejects(early!.snapshot, /offline/);
  } finally {
    process.off('unhandledRejection', note);
  }
});
