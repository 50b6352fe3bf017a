// Pure rules of the board: which column a ticket is in, what a tap does, how late it is, what the
// side panels count. The transitions themselves come from src/shared/order-states.ts.
import { bumpTarget, nextTransitions, type OrderStatus, type PatchTarget } from '../../shared/order-states.ts';
import type { KitchenTicket } from '../../shared/screen-contract/kitchen.ts';
import type { AppSettings } from '../../shared/screen-contract/settings.ts';

/** After the last touch on the board, what is in view stays put this long (nothing moves under a finger). */
export const FREEZE_MS = 1500;

/** The four columns of the kitchen flow. */
export const COLUMNS = ['recibido', 'en_preparacion', 'listo', 'en_reparto'] as const satisfies readonly OrderStatus[];
export type ColumnStatus = (typeof COLUMNS)[number];

const COOKING: readonly OrderStatus[] = ['recibido', 'en_preparacion'];

export type TimerLevel = 'ok' | 'warn' | 'late';

/** A ticket as drawn: its server state with this screen's not-yet-confirmed moves applied. */
export interface ShownTicket extends KitchenTicket {
  shownStatus: OrderStatus;
}

/** A held line's "retenido hasta HH:MM" (issue 32, HeldItemNote.tsx), for the estimate. */
const HELD_NOTE_ESTIMATE = ' retenido hasta 00:00';

export function isColumnStatus(status: OrderStatus): status is ColumnStatus {
  return (COLUMNS as readonly OrderStatus[]).includes(status);
}

/** When the ticket's timer started: kitchen entry, else creation. */
function timerStart(ticket: KitchenTicket): number {
  return ticket.kitchen_since ?? Date.parse(ticket.order.created_at);
}

export function elapsedMs(ticket: KitchenTicket, now: number): number {
  return Math.max(0, now - timerStart(ticket));
}

export function timerLevel(ms: number, thresholds: AppSettings['thresholds']): TimerLevel {
  if (ms >= thresholds.late_minutes * 60_000) return 'late';
  if (ms >= thresholds.warn_minutes * 60_000) return 'warn';
  return 'ok';
}

/** 0:42, 12:05, 1:02:09 */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

export function bumpOf(ticket: ShownTicket): PatchTarget | null {
  return bumpTarget(ticket.shownStatus, ticket.order.type);
}

export function canCancel(ticket: ShownTicket): boolean {
  return nextTransitions(ticket.shownStatus, ticket.order.type).includes('cancelado');
}

/** Order numbers compare as numbers ("9" before "10"); one collator, not one per comparison. */
const byNumber = new Intl.Collator(undefined, { numeric: true }).compare;
/** Each order's timer start, parsed once per version of it (a change re-sorts 250 tickets, not re-parses them). */
const startCache = new WeakMap<KitchenTicket['order'], number>();
function startOf(ticket: ShownTicket): number {
  if (ticket.kitchen_since !== null) return ticket.kitchen_since;
  let start = startCache.get(ticket.order);
  if (start === undefined) startCache.set(ticket.order, (start = timerStart(ticket)));
  return start;
}

/** Oldest first, then by order number. */
export const byTimer = (a: ShownTicket, b: ShownTicket): number => startOf(a) - startOf(b) || byOrderNumber(a.order.number, b.order.number);

/** Oldest first (the column's own array, freshly built by layoutBoard, sorted in place). */
function sortByTimer(tickets: ShownTicket[]): ShownTicket[] {
  return tickets.sort(byTimer);
}

/** Ties are common (a rush fills a second with orders): plain numbers compare without the collator. */
function byOrderNumber(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  return Number.isInteger(x) && Number.isInteger(y) && a !== '' && b !== '' ? x - y : byNumber(a, b);
}

export interface BoardLayout {
  columns: Record<ColumnStatus, ShownTicket[]>;
  scheduled: ShownTicket[];
  awaitingPayment: ShownTicket[];
  recall: ShownTicket[];
}

export interface LayoutOptions {
  /** Finished tickets brought back by a recall, still within their time: shown with the ready ones. */
  recalled?: ReadonlySet<string>;
  /** A station screen: only the tickets with an item of that station. */
  stationId?: string | null;
  /** "Atrasados" (issue 32): only these tickets (lateKey's), or every one when null. */
  lateOnly?: ReadonlySet<string> | null;
  recallLimit?: number;
}

/**
 * The recalled tickets of each version of the board's tickets: the clock asks every second (and the
 * selection on each key), and a scan of 500 tickets each time was a tenth of a change's work.
 */
const recalledOf = new WeakMap<Record<string, KitchenTicket>, KitchenTicket[]>();

/** Ids of the finished tickets a recall keeps on the board at `now` (engine clock), joined: a stable key. */
export function recalledKey(tickets: Record<string, KitchenTicket>, now: number): string {
  let recalled = recalledOf.get(tickets);
  if (!recalled) recalledOf.set(tickets, (recalled = Object.values(tickets).filter((ticket) => ticket.kitchen.recalled_until !== null)));
  const ids: string[] = [];
  for (const ticket of recalled) if (ticket.kitchen.recalled_until! > now) ids.push(ticket.order.id);
  return ids.sort().join(',');
}

const waitingOf = new WeakMap<Record<string, KitchenTicket>, number>();

/**
 * Orders in the menu's lists (scheduled, awaiting payment), once per version of the tickets: a state
 * selector runs on every update of the screen state, several per live push.
 */
export function waitingCount(tickets: Record<string, KitchenTicket>): number {
  let count = waitingOf.get(tickets);
  if (count === undefined) {
    count = 0;
    for (const ticket of Object.values(tickets)) if (ticket.order.status === 'programado' || ticket.order.status === 'pendiente_pago') count++;
    waitingOf.set(tickets, count);
  }
  return count;
}

/** A cooking ticket this close to its promise shows it is due (issue 32). */
export const PROMISE_DUE_MS = 5 * 60_000;

/**
 * How a cooking ticket stands against its customer's promise (issue 32): `late` once it passed,
 * `due` within PROMISE_DUE_MS of it, else `on_time`; null when it has no promise or is not cooking.
 */
export function promiseStanding(ticket: Pick<ShownTicket, 'shownStatus' | 'kitchen'>, now: number): 'late' | 'due' | 'on_time' | null {
  const promised = ticket.kitchen.promised_ready_at;
  if (promised === undefined || !COOKING.includes(ticket.shownStatus)) return null;
  if (now > promised) return 'late';
  return promised - now <= PROMISE_DUE_MS ? 'due' : 'on_time';
}

/** The cooking tickets past their promise at `now` ("Atrasados"), as a key that changes only when the set does. */
export function lateKey(tickets: readonly ShownTicket[], now: number): string {
  return tickets
    .filter((ticket) => promiseStanding(ticket, now) === 'late')
    .map((ticket) => ticket.order.id)
    .sort()
    .join(',');
}

export function layoutBoard(tickets: ShownTicket[], locationId: string | null, options: LayoutOptions = {}): BoardLayout {
  const recalled = options.recalled ?? new Set<string>();
  const stationId = options.stationId ?? null;
  const late = options.lateOnly ?? null;
  const visible = tickets.filter(
    (t) =>
      (locationId === null || t.order.location_id === locationId) &&
      (stationId === null || t.kitchen.items.some((item) => item.station_id === stationId)) &&
      (late === null || late.has(t.order.id)),
  );
  const columns = Object.fromEntries(COLUMNS.map((c) => [c, [] as ShownTicket[]])) as Record<ColumnStatus, ShownTicket[]>;
  const scheduled: ShownTicket[] = [];
  const awaitingPayment: ShownTicket[] = [];
  const recall: ShownTicket[] = [];
  for (const ticket of visible) {
    const status = ticket.shownStatus;
    if (isColumnStatus(status)) columns[status].push(ticket);
    else if (recalled.has(ticket.order.id)) columns.listo.push(ticket);
    else if (status === 'programado') scheduled.push(ticket);
    else if (status === 'pendiente_pago') awaitingPayment.push(ticket);
    else recall.push(ticket);
  }
  for (const c of COLUMNS) columns[c] = sortByTimer(columns[c]);
  // Recalled tickets first among the ready ones: they came back to be looked at.
  columns.listo.sort((a, b) => Number(recalled.has(b.order.id)) - Number(recalled.has(a.order.id)));
  scheduled.sort((a, b) => (a.order.scheduled_for ?? '').localeCompare(b.order.scheduled_for ?? ''));
  awaitingPayment.sort((a, b) => a.order.created_at.localeCompare(b.order.created_at));
  recall.sort((a, b) => Date.parse(b.order.updated_at) - Date.parse(a.order.updated_at));
  return { columns, scheduled, awaitingPayment, recall: recall.slice(0, options.recallLimit ?? 20) };
}

export interface AllDayLine {
  name: string;
  quantity: number;
}

/** Items still to cook (new and preparing, real orders), summed by product name, most first. */
export function allDayCounts(tickets: ShownTicket[], locationId: string | null): AllDayLine[] {
  const counts = new Map<string, number>();
  for (const ticket of tickets) {
    if (ticket.order.test || !COOKING.includes(ticket.shownStatus)) continue;
    if (locationId !== null && ticket.order.location_id !== locationId) continue;
    for (const item of ticket.kitchen.items) counts.set(item.name, (counts.get(item.name) ?? 0) + item.quantity);
  }
  return [...counts.entries()]
    .map(([name, quantity]) => ({ name, quantity }))
    .sort((a, b) => b.quantity - a.quantity || a.name.localeCompare(b.name));
}

export interface TodayStats {
  orders: number;
  testOrders: number;
  /** Mean time from kitchen entry to ready of today's real orders that got ready; null if none. */
  averageToReadyMs: number | null;
  /** Real orders of today that took (or are taking) longer than the late threshold to get ready. */
  late: number;
}

export function todayStats(
  tickets: ShownTicket[],
  dayStart: number,
  now: number,
  thresholds: AppSettings['thresholds'],
  locationId: string | null,
): TodayStats {
  const lateMs = thresholds.late_minutes * 60_000;
  let orders = 0;
  let testOrders = 0;
  let late = 0;
  const durations: number[] = [];
  for (const ticket of tickets) {
    const { order } = ticket;
    if (locationId !== null && order.location_id !== locationId) continue;
    if (Date.parse(order.created_at) < dayStart) continue;
    if (order.test) {
      testOrders++;
      continue;
    }
    orders++;
    if (ticket.kitchen_since === null || order.status === 'cancelado') continue;
    const readyAt = ticket.ready_at;
    if (readyAt !== null) durations.push(readyAt - ticket.kitchen_since);
    const took = (readyAt ?? now) - ticket.kitchen_since;
    if (took >= lateMs && (readyAt !== null || COOKING.includes(ticket.shownStatus))) late++;
  }
  const averageToReadyMs = durations.length === 0 ? null : durations.reduce((a, b) => a + b, 0) / durations.length;
  return { orders, testOrders, averageToReadyMs, late };
}

/**
 * The body of a ticket, block by block, in the order it is drawn; a fragment of it (board-plan.ts)
 * holds a run of them under its own header. A station's screen shows only what the station acts
 * on (its items, their modifiers and notes, the order's note and allergies); who, where and how it
 * is paid, and the stations' progress, are for the expo and the desktop.
 */
export type TicketBlockKind = 'state' | 'order-note' | 'item' | 'when' | 'facts' | 'foot';

export interface TicketBlock {
  kind: TicketBlockKind;
  /** The item's index (kind 'item'). */
  index?: number;
  /** Its text, for the estimate: wrapped lines of it. */
  texts: string[];
  /** One-line rows besides the texts (modifiers, facts). */
  lines: number;
  /** Its own padding and borders, px. */
  extra: number;
}

export interface TicketBlockOptions {
  compact: boolean;
  stationId: string | null;
  withStations: boolean;
  showState: boolean;
  /** The ticket can be moved from this screen (cancel, reprint and the like in its foot). */
  actions: boolean;
}

export function ticketBlocks(ticket: ShownTicket, options: TicketBlockOptions): TicketBlock[] {
  const { order, kitchen } = ticket;
  const blocks: TicketBlock[] = [];
  if (options.showState) blocks.push({ kind: 'state', texts: [], lines: 1, extra: 2 });
  // The order's own note (an allergy above all) comes before the items: it is about all of them.
  if (order.notes) blocks.push({ kind: 'order-note', texts: [`Nota del pedido: ${order.notes}`], lines: 0, extra: 8 });
  const items = options.stationId === null ? kitchen.items : kitchen.items.filter((i) => i.station_id === options.stationId);
  for (const item of items) {
    blocks.push({ kind: 'item', index: item.index, texts: [`${item.quantity}× ${item.name}${item.held_until === undefined ? '' : HELD_NOTE_ESTIMATE}`, ...(item.notes ? [`⚠ ${item.notes}`] : [])], lines: item.modifiers.length, extra: 4 });
  }
  const when = (order.scheduled_for ? 1 : 0) + (kitchen.countdown ? 1 : 0);
  if (when > 0) blocks.push({ kind: 'when', texts: [], lines: when, extra: 2 });
  // Who moves a managed order is said in its header, where its bump would be (TicketCard.tsx).
  if (options.stationId === null) {
    // Who, where and how it is paid, beside the ticket's own buttons (cancel, reprint): one block.
    let facts = 1; // who (and where)
    // The courier's line is detail at a rush (compact), like the address and phone: the ticket's details sheet has it.
    if (order.delivery && !options.compact) facts += 1;
    if (kitchen.payment.paid || kitchen.payment.collect !== null || kitchen.payment.refunded > 0) facts += 1;
    // The stations' progress too: at a rush each item's own strike says it; the details sheet lists it.
    if (options.withStations && kitchen.stations.length > 0 && !options.compact) facts += 1;
    blocks.push({ kind: 'facts', texts: [], lines: facts, extra: options.actions && facts < 3 ? 52 - facts * 18 : 4 });
  } else if (options.actions) {
    blocks.push({ kind: 'foot', texts: [], lines: 0, extra: 52 });
  }
  return blocks;
}
