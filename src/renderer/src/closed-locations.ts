// Which closed locations a board's status strip names, and how loudly. A location closed now takes
// no new orders; that is an alarm for the kitchen only where orders stopped coming: it took real
// orders today and now takes none (a register closed during service, by hand or by mistake). A
// location that has taken none today (a fresh hub, before its register opens, the demo's second
// location) is simply closed: said quietly, never in red, so the first screen says nothing alarming.
import type { KitchenTicket, LocationStatusEntry } from '../../shared/screen-contract/kitchen.ts';

export interface ClosedOnStrip {
  /** Closed now after taking real orders today: "Sin pedidos nuevos", in red. */
  stopped: LocationStatusEntry[];
  /** Closed now with no real order today: "Cerrada", a plain chip. */
  idle: LocationStatusEntry[];
}

/**
 * The active locations this board shows (all, or the one it is filtered to) that are closed now,
 * split by whether they took a real order today. Test orders are an integration's trials, not service.
 */
export function closedOnStrip(locations: readonly LocationStatusEntry[], orderedToday: ReadonlySet<string>, filter: string | null): ClosedOnStrip {
  const closed = locations.filter((l) => l.is_active && !l.open_now && (filter === null || l.location_id === filter));
  return {
    stopped: closed.filter((l) => orderedToday.has(l.location_id)),
    idle: closed.filter((l) => !orderedToday.has(l.location_id)),
  };
}

let lastScan: { tickets: Record<string, KitchenTicket>; dayStart: number; ids: ReadonlySet<string> } | null = null;

/**
 * The locations with a real order created since `dayStart` (the board holds every order of the
 * day). Worked out once per tickets object: the strip asks on every change of the board's state.
 */
export function locationsOrderedSince(tickets: Record<string, KitchenTicket>, dayStart: number): ReadonlySet<string> {
  if (lastScan?.tickets === tickets && lastScan.dayStart === dayStart) return lastScan.ids;
  const ids = new Set<string>();
  for (const { order } of Object.values(tickets)) {
    if (order.test || order.location_id === null || ids.has(order.location_id)) continue;
    if (Date.parse(order.created_at) >= dayStart) ids.add(order.location_id);
  }
  lastScan = { tickets, dayStart, ids };
  return ids;
}
