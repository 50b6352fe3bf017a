// Which closed locations the board's status strip names, and how loudly: in red ("Sin pedidos
// nuevos") only a location that took real orders today and is closed now; one closed before any
// order today (a fresh hub, the demo's second location) plainly ("Cerrada").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closedOnStrip, locationsOrderedSince } from '../../src/renderer/src/closed-locations.ts';
import type { KitchenTicket, LocationStatusEntry } from '../../src/shared/screen-contract/kitchen.ts';
import { order, ticket } from './state/fakes.ts';

const location = (location_id: string, name: string, open_now: boolean, is_active = true): LocationStatusEntry => ({
  location_id,
  name,
  address: `${name} 123`,
  is_active,
  open_now,
  reason: !is_active ? 'sucursal_desactivada' : open_now ? 'caja_abierta' : 'caja_cerrada',
  next_opening_at: null,
});
const centro = location('centro', 'Centro', true);
const egana = location('egana', 'Plaza Egaña', false);
const macul = location('macul', 'Macul', false, false);
const dayStart = Date.parse('2026-11-21T00:00:00-03:00');
const board = (...tickets: KitchenTicket[]) => Object.fromEntries(tickets.map((t) => [t.order.id, t]));
const names = (shown: { stopped: LocationStatusEntry[]; idle: LocationStatusEntry[] }) => ({
  stopped: shown.stopped.map((l) => l.name),
  idle: shown.idle.map((l) => l.name),
});

test('the first screen: a location closed before any order today is said plainly, never as stopped; an inactive one not at all', () => {
  assert.deepEqual(names(closedOnStrip([centro, egana, macul], locationsOrderedSince(board(), dayStart), null)), { stopped: [], idle: ['Plaza Egaña'] });
  // Orders at the open location (the demo's rush) change nothing for the closed one.
  const rush = board(ticket(order({ location_id: 'centro' })), ticket(order({ location_id: 'centro' })));
  assert.deepEqual(names(closedOnStrip([centro, egana, macul], locationsOrderedSince(rush, dayStart), null)), { stopped: [], idle: ['Plaza Egaña'] });
});

test('a location that took real orders today and is closed now has stopped taking them', () => {
  const today = board(ticket(order({ location_id: 'centro' })));
  const closedCentro = { ...centro, open_now: false, reason: 'caja_cerrada' as const };
  assert.deepEqual(names(closedOnStrip([closedCentro, egana], locationsOrderedSince(today, dayStart), null)), { stopped: ['Centro'], idle: ['Plaza Egaña'] });
  // A board filtered to one location names that one alone.
  assert.deepEqual(names(closedOnStrip([closedCentro, egana], locationsOrderedSince(today, dayStart), 'egana')), { stopped: [], idle: ['Plaza Egaña'] });
  assert.deepEqual(names(closedOnStrip([closedCentro, egana], locationsOrderedSince(today, dayStart), 'centro')), { stopped: ['Centro'], idle: [] });
});

test('orders that do not count: yesterday\'s (an order still open from before midnight) and test orders', () => {
  const yesterday = ticket(order({ location_id: 'egana', created_at: '2026-11-20T23:50:00-03:00' }));
  const trial = ticket(order({ location_id: 'egana', test: true }));
  assert.deepEqual([...locationsOrderedSince(board(yesterday, trial), dayStart)], []);
  assert.deepEqual(names(closedOnStrip([egana], locationsOrderedSince(board(yesterday, trial), dayStart), null)), { stopped: [], idle: ['Plaza Egaña'] });
  const real = ticket(order({ location_id: 'egana', created_at: '2026-11-21T00:00:00-03:00' }));
  assert.deepEqual([...locationsOrderedSince(board(yesterday, trial, real), dayStart)], ['egana'], 'an order at midnight is today\'s');
});

test('the scan is done once per tickets object (the strip asks on every change of the board)', () => {
  const tickets = board(ticket(order({ location_id: 'centro' })));
  const first = locationsOrderedSince(tickets, dayStart);
  assert.equal(locationsOrderedSince(tickets, dayStart), first, 'the same tickets: the same answer');
  const more = { ...tickets, ...board(ticket(order({ location_id: 'egana' }))) };
  assert.deepEqual([...locationsOrderedSince(more, dayStart)].sort(), ['centro', 'egana'], 'a new tickets object is read afresh');
  assert.deepEqual([...locationsOrderedSince(tickets, dayStart + 24 * 3_600_000)], [], 'a new day is read afresh');
});
