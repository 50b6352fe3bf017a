// The kitchen's wait on the board's status strip (issue 32): its words in both languages, the
// location a filtered board shows, each name when several share the board, "Pausado" while busy mode
// has paused the store fronts; and the locations state takes the figures from each heartbeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translate } from '../../src/renderer/src/i18n.ts';
import { kitchenWaitTexts } from '../../src/renderer/src/kitchen-wait.ts';
import { createLocationsState } from '../../src/renderer/src/state/locations-state.ts';
import type { BoardLocation, KitchenWaitEntry, LivePush } from '../../src/shared/screen-contract/kitchen.ts';

const es = (key: Parameters<typeof translate>[1], vars?: Record<string, string | number>) => translate('es', key, vars);
const en = (key: Parameters<typeof translate>[1], vars?: Record<string, string | number>) => translate('en', key, vars);
const centro: BoardLocation = { location_id: 'centro', name: 'Centro', is_active: true };
const nunoa: BoardLocation = { location_id: 'nunoa', name: 'Ñuñoa', is_active: true };
const cerrada: BoardLocation = { location_id: 'vieja', name: 'Vieja', is_active: false };

test('one location: "Espera ~18 min", "~18 min" on a phone; paused: "Pausado: espera 32 min"', () => {
  assert.deepEqual(kitchenWaitTexts(es, [{ location_id: 'centro', wait_minutes: 18, paused: false }], [centro], null), [
    { location_id: 'centro', paused: false, minutes: 18, text: 'Espera ~18 min', short: '~18 min' },
  ]);
  assert.deepEqual(kitchenWaitTexts(es, [{ location_id: 'centro', wait_minutes: 32, paused: true }], [centro], null), [
    { location_id: 'centro', paused: true, minutes: 32, text: 'Pausado: espera 32 min', short: 'Pausado 32 min' },
  ]);
  const english = kitchenWaitTexts(en, [{ location_id: 'centro', wait_minutes: 32, paused: true }], [centro], null)[0]!;
  assert.deepEqual([english.text, english.short], ['Paused: wait 32 min', 'Paused 32 min']);
  assert.equal(kitchenWaitTexts(en, [{ location_id: 'centro', wait_minutes: 0, paused: false }], [centro], null)[0]!.text, 'Wait ~0 min');
});

test('several locations each say their name; a board filtered to one shows that one alone; inactive ones and ones without a figure are left out', () => {
  const waits: KitchenWaitEntry[] = [
    { location_id: 'nunoa', wait_minutes: 5, paused: false },
    { location_id: 'centro', wait_minutes: 21, paused: true },
  ];
  const both = kitchenWaitTexts(es, waits, [centro, nunoa, cerrada], null);
  assert.deepEqual(both.map((w) => [w.text, w.short]), [
    ['Centro pausado: espera 21 min', 'Centro pausado 21 min'],
    ['Ñuñoa: espera ~5 min', 'Ñuñoa ~5 min'],
  ]);
  assert.deepEqual(kitchenWaitTexts(es, waits, [centro, nunoa], 'nunoa').map((w) => w.text), ['Espera ~5 min']);
  assert.deepEqual(kitchenWaitTexts(es, [{ location_id: 'centro', wait_minutes: 3, paused: false }], [centro, nunoa], null).map((w) => w.text), ['Espera ~3 min']);
  assert.deepEqual(kitchenWaitTexts(es, [], [centro], null), []);
  // A location closed now (its chip says it takes no orders) is left out, unless the board shows it alone.
  assert.deepEqual(kitchenWaitTexts(es, waits, [centro, nunoa], null, new Set(['centro'])).map((w) => w.text), ['Espera ~5 min']);
  assert.deepEqual(kitchenWaitTexts(es, waits, [centro, nunoa], 'centro', new Set(['centro'])).map((w) => w.text), ['Pausado: espera 21 min']);
});

test('the locations state keeps the waits of the last heartbeat that says them (and draws nothing again when they did not change)', () => {
  const state = createLocationsState({ api: { listLocations: async () => { throw new Error('not asked'); }, setLocationOpen: async () => { throw new Error('not asked'); } } });
  const beat = (kitchen_waits?: KitchenWaitEntry[]): LivePush => ({
    kind: 'heartbeat',
    now: 0,
    status: { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null },
    ...(kitchen_waits ? { kitchen_waits } : {}),
  });
  assert.equal(state.getState().kitchenWaits, null);
  state.getState().receive(beat([{ location_id: 'centro', wait_minutes: 12, paused: false }]));
  const first = state.getState().kitchenWaits;
  assert.deepEqual(first, [{ location_id: 'centro', wait_minutes: 12, paused: false }]);
  state.getState().receive(beat([{ location_id: 'centro', wait_minutes: 12, paused: false }]));
  assert.equal(state.getState().kitchenWaits, first, 'the same figures: the same object');
  state.getState().receive(beat());
  assert.equal(state.getState().kitchenWaits, first, 'a heartbeat without waits (an older engine) changes nothing');
  state.getState().receive(beat([{ location_id: 'centro', wait_minutes: 30, paused: true }]));
  assert.deepEqual(state.getState().kitchenWaits, [{ location_id: 'centro', wait_minutes: 30, paused: true }]);
});

test('a wait over two hours says so ("Espera más de 2 h", "> 2 h" on a phone), paused or not, named or not; two hours itself is still minutes', () => {
  const over = (minutes: number, paused: boolean) => kitchenWaitTexts(es, [{ location_id: 'centro', wait_minutes: minutes, paused }], [centro], null)[0]!;
  // The demo's rush of 45 orders at once: its oven of one cook has 23 empanada lines to make.
  assert.deepEqual(over(354, false), { location_id: 'centro', paused: false, minutes: 354, text: 'Espera más de 2 h', short: '> 2 h' });
  assert.deepEqual([over(121, true).text, over(121, true).short], ['Pausado: espera más de 2 h', 'Pausado > 2 h']);
  assert.deepEqual([over(120, false).text, over(120, true).text], ['Espera ~120 min', 'Pausado: espera 120 min']);
  const named = kitchenWaitTexts(es, [{ location_id: 'centro', wait_minutes: 200, paused: false }, { location_id: 'nunoa', wait_minutes: 5, paused: false }], [centro, nunoa], null);
  assert.deepEqual(named.map((w) => [w.text, w.short]), [['Centro: espera más de 2 h', 'Centro > 2 h'], ['Ñuñoa: espera ~5 min', 'Ñuñoa ~5 min']]);
  const english = kitchenWaitTexts(en, [{ location_id: 'centro', wait_minutes: 354, paused: true }], [centro], null)[0]!;
  assert.deepEqual([english.text, english.short], ['Paused: wait over 2 h', 'Paused > 2 h']);
});
