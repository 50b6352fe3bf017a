// Print jobs are intents, like courier deliveries: written in the transaction of the change that
// causes them (an order reaching the kitchen, expo bumping a delivery to listo, a cook's Reimprimir),
// sent by the jobs runner after the commit (jobs/send-print-jobs.ts). One printer's jobs print
// strictly in order: its oldest job not printed holds back the others. A job is marked `sending`
// before its bytes leave; one found so when the engine starts was cut off by a crash and is sent
// again once, marked REIMPRESIÓN (a printer may have printed part of it).
import { shownOrderNumber } from '../../../shared/order-number.ts';
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { mentionsAllergy } from '../../../shared/allergy-notes.ts';
import { ApiError } from '../../domain/errors.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import { firstName, type PrintLine, type TicketDocument } from '../../printers/print-document.ts';
import type { PrintJobChanges, PrintJobKind, PrintJobRow } from '../../store/print-jobs-store.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { PrinterRow } from '../../store/printers-store.ts';
import { allergenKey, type KitchenSettings } from '../../domain/kitchen-settings.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';
import type { OrderItemView } from '../orders/order-view.ts';
import { findPrinter, parseJsonList } from './printers.ts';

/**
 * The real-time deadline of each phase of a send (connecting, the paper question, closing); the
 * ticket's answer may take its size at the slowest printer's rate on top (printers/printer-port.ts).
 */
export const DEFAULT_PRINT_TIMEOUT_MS = 10_000;
/**
 * Sends whose ticket left without the printer confirming it, after which the job is set aside: the
 * printer's next jobs go on and the kitchen is told, instead of the same ticket printing forever.
 */
export const SET_ASIDE_AFTER_FAILED_SENDS = 3;
/** Backoff between tries at an unreachable printer (engine clock): 5 s, 10 s, 20 s, 40 s, then every 60 s. */
export function printRetryAt(now: number, attempts: number): number {
  const seconds = Math.min(60, 5 * 2 ** Math.max(0, attempts - 1));
  return DateTime.fromMillis(now).plus({ seconds }).toMillis();
}

interface StationLines {
  lines: PrintLine[];
  stationIds: Set<string | null>;
}

function itemLines(order: OrderRow, settings: KitchenSettings, stations: readonly string[]): StationLines {
  const words = settings.allergy_words ?? [];
  const lines: PrintLine[] = [];
  const stationIds = new Set<string | null>();
  for (const item of JSON.parse(order.items) as OrderItemView[]) {
    const station = item.product_id === null ? null : (settings.product_stations[item.product_id] ?? null);
    // A printer for given stations prints their items; one for every station prints all of them.
    if (stations.length > 0 && (station === null || !stations.includes(station))) continue;
    stationIds.add(station);
    const flagged = item.product_id === null ? undefined : settings.allergens[item.product_id];
    lines.push({
      quantity: item.quantity,
      name: item.name,
      modifiers: item.modifiers.map((m) => ({
        text: [m.group, m.name].filter((t): t is string => t !== null && t !== '').join(': '),
        allergen: flagged?.includes(allergenKey(m.group, m.name)) ?? false,
      })),
      notes: item.notes,
      notes_allergy: item.notes !== null && mentionsAllergy(item.notes, words),
    });
  }
  return { lines, stationIds };
}

/** The ticket of `order` for a printer serving `stations` ([] = all), or null when none of its items is theirs. */
export async function orderDocument(engine: Engine, tx: WriteTransaction, order: OrderRow, stations: readonly string[], kind: 'ticket' | 'bag'): Promise<TicketDocument | null> {
  const restaurant = (await tx.stores.restaurants.get(order.restaurant_id))!;
  const settings = await readKitchenSettings(engine, order.restaurant_id, tx);
  const { lines } = itemLines(order, settings, kind === 'bag' ? [] : stations);
  if (lines.length === 0) return null;
  const zone = restaurant.time_zone;
  const stationNames = settings.stations.filter((s) => stations.includes(s.id)).map((s) => s.name);
  return {
    kind,
    // "1042 · L7" on a replica's order until it is done: the first paper said L7.
    number: shownOrderNumber(order),
    test: order.test === 1,
    type: order.type,
    time: DateTime.fromMillis(order.created_at, { zone }).toFormat('HH:mm'),
    customer_first_name: firstName(order.customer_name),
    scheduled_for: order.scheduled_for === null ? null : DateTime.fromMillis(order.scheduled_for, { zone }).toFormat('dd-MM HH:mm'),
    station: kind === 'bag' || stationNames.length === 0 ? null : stationNames.join(' + '),
    lines,
    notes: order.notes,
    notes_allergy: order.notes !== null && mentionsAllergy(order.notes, settings.allergy_words ?? []),
    address: kind === 'bag' ? order.address : null,
  };
}

async function writeJob(engine: Engine, tx: WriteTransaction, printer: PrinterRow, order: OrderRow | null, kind: PrintJobKind, doc: TicketDocument, now: number, held = false, reprint = false): Promise<string> {
  const id = randomUUID();
  await tx.stores.printJobs.insert({
    id,
    restaurant_id: printer.restaurant_id,
    printer_id: printer.id,
    order_id: order?.id ?? null,
    kind,
    station_id: null,
    document: JSON.stringify(doc),
    status: held ? 'held' : 'queued',
    reprint: reprint ? 1 : 0,
    next_attempt_at: held ? null : now,
    created_at: now,
  });
  return id;
}

const printsWhen = (printer: PrinterRow, when: string): boolean => parseJsonList(printer.print_when).includes(when);

/**
 * The order has reached the kitchen (created, or its payment confirmed): one ticket per printer
 * that prints on arrival and serves one of its stations; a fallback printer's ticket is held until
 * the jobs runner sees whether its stations' screens are live. Call inside the order's transaction.
 */
export async function queueArrivalTickets(engine: Engine, tx: WriteTransaction, order: OrderRow, now: number): Promise<void> {
  for (const printer of await tx.stores.printers.list(order.restaurant_id)) {
    const arrival = printsWhen(printer, 'arrival');
    const fallback = printsWhen(printer, 'fallback');
    if (!arrival && !fallback) continue;
    const doc = await orderDocument(engine, tx, order, parseJsonList(printer.stations), 'ticket');
    if (!doc) continue;
    await writeJob(engine, tx, printer, order, arrival ? 'ticket' : 'fallback', doc, now, !arrival);
  }
}

/** Expo bumped a delivery to listo: a bag label at each printer that prints them. Inside its transaction. */
export async function queueBagLabels(engine: Engine, tx: WriteTransaction, order: OrderRow, now: number): Promise<void> {
  if (order.type !== 'delivery') return;
  for (const printer of await tx.stores.printers.list(order.restaurant_id)) {
    if (!printsWhen(printer, 'bag')) continue;
    const doc = await orderDocument(engine, tx, order, [], 'bag');
    if (doc) await writeJob(engine, tx, printer, order, 'bag', doc, now);
  }
}

/** The statuses of an order in the kitchen's hands, not yet out of them: a replica first seeing one there prints it. */
const IN_THE_KITCHEN: ReadonlySet<OrderRow['status']> = new Set(['recibido', 'programado', 'en_preparacion']);

/**
 * A replica mirrored an order from its upstream (mirror-upstream.ts): what its own printers print
 * for it, in the mirror's transaction, each at most once per order. Arrival (and fallback) tickets
 * when the order first reaches this kitchen: seen for the first time in the kitchen's hands (an
 * order taken upstream, an online one paid there), or its payment confirmed upstream. A bag label
 * when a delivery this replica knew reaches listo upstream. What was printed here already (an
 * order seen before, a bump made on this replica, then mirrored back) prints nothing more.
 */
export async function queueMirroredPrints(engine: Engine, tx: WriteTransaction, before: OrderRow | undefined, after: OrderRow, now: number): Promise<void> {
  const arrives = IN_THE_KITCHEN.has(after.status) && (before === undefined || before.status === 'pendiente_pago');
  const ready = after.type === 'delivery' && after.status === 'listo' && before !== undefined && before.status !== 'listo';
  if (!arrives && !ready) return;
  const earlier = await tx.stores.printJobs.ofOrder(after.id);
  if (arrives && !earlier.some((j) => j.kind !== 'bag')) await queueArrivalTickets(engine, tx, after, now);
  if (ready && !earlier.some((j) => j.kind === 'bag')) await queueBagLabels(engine, tx, after, now);
}

/**
 * Reimprimir: the order's ticket again, marked REIMPRESIÓN, at every printer that printed (or
 * was to print) one for it; with none, at every arrival or fallback printer serving its items.
 */
export async function queueReprint(engine: Engine, restaurantId: string, orderId: string): Promise<{ queued: number }> {
  return await engine.transaction(async (tx) => {
    const order = await tx.stores.orders.getById(orderId);
    if (!order || order.restaurant_id !== restaurantId) throw new ApiError('not_found', `order ${orderId} not found`);
    const now = engine.clock.now();
    const earlier = new Set((await tx.stores.printJobs.ofOrder(order.id)).filter((j) => j.kind !== 'bag').map((j) => j.printer_id));
    const printers = (await tx.stores.printers.list(restaurantId)).filter((p) =>
      earlier.size > 0 ? earlier.has(p.id) : printsWhen(p, 'arrival') || printsWhen(p, 'fallback'),
    );
    let queued = 0;
    for (const printer of printers) {
      const doc = await orderDocument(engine, tx, order, parseJsonList(printer.stations), 'ticket');
      if (!doc) continue;
      await writeJob(engine, tx, printer, order, 'reprint', doc, now, false, true);
      queued++;
    }
    if (queued === 0) throw new ApiError('invalid_request', 'no printer prints this order\'s items: add one in Ajustes → Impresoras');
    return { queued };
  });
}

/**
 * Jobs left `sending` by a process that stopped mid-send (kill -9, power cut): queued again at
 * once, marked as reprints. Run when the jobs runner starts, before any send of its own. On
 * PostgreSQL it finds none: another node may be sending them right now; a job whose node died
 * is taken over once its lease ends (claimNextJob).
 */
export async function requeueCutJobs(engine: Engine): Promise<number> {
  if (engine.kind === 'postgres') return 0;
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const cut = await tx.stores.printJobs.sending();
    for (const job of cut) await tx.stores.printJobs.update(job.id, { status: 'queued', reprint: 1, next_attempt_at: now }, now);
    return cut.length;
  });
}

/**
 * Fallback tickets held at arrival: dropped once the printer's stations have each had a live
 * kitchen screen since the ticket was written (a screen has it), released to print once one of its
 * stations has had none for the printer's fallback seconds (counted from the engine's start at
 * most). A screen showing every station counts for each; a printer of every station needs one.
 */
export async function settleFallbackJobs(engine: Engine): Promise<void> {
  const held = await engine.read(async (tx) => await tx.stores.printJobs.held());
  if (held.length === 0) return;
  await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    for (const job of held) {
      const printer = await tx.stores.printers.get(job.printer_id);
      if (!printer || printer.removed_at !== null) continue;
      const lastLive = engine.screenPresence.lastLive(job.restaurant_id, parseJsonList(printer.stations));
      if (lastLive !== null && lastLive > job.created_at) {
        await tx.stores.printJobs.update(job.id, { status: 'dropped' }, now);
        continue;
      }
      const goneSince = Math.max(lastLive ?? engine.startedAt, engine.startedAt);
      if (now - goneSince >= printer.fallback_seconds * 1000) await tx.stores.printJobs.update(job.id, { status: 'queued', next_attempt_at: now }, now);
    }
  });
}

/** Printers with a job to send now or later. */
export async function printersWithJobs(engine: Engine, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.printJobs.printersToServe();
  });
}

/**
 * How long (engine clock) a claimed send holds its job before another node may take it over as
 * dead (issue 34, PostgreSQL). Longer than any send's deadline (printers/printer-port.ts's
 * sendDeadlineMs: 40 s plus the ticket at 1.5 KB/s with the default 10 s phases), so a live node's
 * send always ends, and is recorded or cut short, within its lease.
 */
export const PRINT_LEASE_MS = 10 * 60_000;

export interface ClaimedJob {
  job: PrintJobRow;
  printer: PrinterRow;
  document: TicketDocument;
  /** The claim's lease end (engine clock): its outcome is recorded only while the job still holds it. */
  leaseUntil: number;
  /** Taken over from a node whose lease ended mid-send (PostgreSQL): printed again as a reprint. */
  takenOver: boolean;
}

/**
 * The printer's next job if it is due: claimed (`sending`, the crash marker, under a lease) in its
 * own transaction. On PostgreSQL the claim is conditional, so of two nodes claiming the head at
 * once one gets it; the other finds the head `sending` and leaves the printer to it (its jobs print
 * strictly in order). A head still `sending` past its lease was cut off by a node that died: this
 * node takes it over. On SQLite one process claims; a job it left `sending` is requeued at start.
 */
export async function claimNextJob(engine: Engine, printerId: string): Promise<ClaimedJob | null> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const printer = await tx.stores.printers.get(printerId);
    const job = await tx.stores.printJobs.head(printerId);
    if (!printer || !job) return null;
    const takeOver = engine.kind === 'postgres' && job.status === 'sending';
    if (job.status !== 'queued' && !takeOver) return null;
    if (printer.removed_at !== null) {
      await tx.stores.printJobs.dropOpenOf(printer.id, now);
      return null;
    }
    if (job.next_attempt_at !== null && job.next_attempt_at > now) return null;
    const leaseUntil = DateTime.fromMillis(now).plus({ milliseconds: PRINT_LEASE_MS }).toMillis();
    const claimed = await tx.stores.printJobs.claim(job.id, now, leaseUntil, takeOver);
    if (!claimed) return null;
    return { job: claimed, printer, document: JSON.parse(claimed.document) as TicketDocument, leaseUntil, takenOver: takeOver };
  });
}

export type SendOutcome =
  | { ok: true }
  | { ok: false; state: 'unreachable' | 'paper_out'; error: string; mayHavePrinted: boolean };

/**
 * Records a send's outcome: printed; or queued again with backoff and the printer's state; or, once
 * its ticket has left SET_ASIDE_AFTER_FAILED_SENDS times without the printer confirming it, set aside.
 * Only while the job still holds this claim: 'lost' (nothing recorded) when its lease ended and
 * another node took it over (a node that stalled past its lease), whose outcome counts.
 */
export async function recordSend(engine: Engine, claimed: ClaimedJob, outcome: SendOutcome): Promise<'printed' | 'retry' | 'set_aside' | 'lost'> {
  return await engine.transaction(async (tx) => {
    const now = engine.clock.now();
    const { job, printer, leaseUntil } = claimed;
    const record = async (changes: PrintJobChanges) => await tx.stores.printJobs.updateClaimed(job.id, leaseUntil, changes, now);
    if (outcome.ok) {
      if (!await record({ status: 'printed', printed_at: now, next_attempt_at: null, last_error: null })) return 'lost';
      if (printer.state !== 'ok' || printer.state_detail !== null) await tx.stores.printers.setState(printer.id, 'ok', null, now);
      return 'printed';
    }
    if (!outcome.mayHavePrinted) {
      if (!await record({ status: 'queued', next_attempt_at: printRetryAt(now, job.attempts), last_error: outcome.error })) return 'lost';
      await tx.stores.printers.setState(printer.id, outcome.state, outcome.error, now);
      return 'retry';
    }
    // Part of it may be on paper already: the next try says REIMPRESIÓN.
    const failedSends = job.failed_sends + 1;
    const setAside = failedSends >= SET_ASIDE_AFTER_FAILED_SENDS;
    const changes: PrintJobChanges = setAside
      ? { status: 'set_aside', reprint: 1, failed_sends: failedSends, next_attempt_at: null, last_error: outcome.error }
      : { status: 'queued', reprint: 1, failed_sends: failedSends, next_attempt_at: printRetryAt(now, job.attempts), last_error: outcome.error };
    if (!await record(changes)) return 'lost';
    await tx.stores.printers.setState(printer.id, outcome.state, outcome.error, now);
    return setAside ? 'set_aside' : 'retry';
  });
}

/**
 * Reintentar: the printer's jobs set aside are queued again (marked REIMPRESIÓN, their count of
 * failed sends back to zero), ahead of the later ones as they were. Returns how many.
 */
export async function retrySetAsideJobs(engine: Engine, restaurantId: string, printerIdOrName: string): Promise<{ printer: string; retried: number }> {
  return await engine.transaction(async (tx) => {
    const printer = await findPrinter(engine, tx, restaurantId, printerIdOrName);
    const now = engine.clock.now();
    const jobs = await tx.stores.printJobs.setAsideOf(printer.id);
    for (const job of jobs) await tx.stores.printJobs.update(job.id, { status: 'queued', reprint: 1, failed_sends: 0, next_attempt_at: now }, now);
    return { printer: printer.name, retried: jobs.length };
  });
}

/** Printed and dropped jobs are kept this long (engine clock) for the printers' history, then purged. */
export const PRINT_JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Jobs purged per pass at most, so a backlog (a first run after an upgrade) never holds the writer long. */
export const PRINT_JOB_PURGE_BATCH = 500;

/**
 * Purges finished jobs (printed, dropped) older than the retention, oldest first, at most
 * `limit`; a job still to print (queued, sending, held) is never touched. Returns how many.
 */
export async function purgeFinishedPrintJobs(engine: Engine, limit = PRINT_JOB_PURGE_BATCH): Promise<number> {
  return await engine.transaction(async (tx) => await tx.stores.printJobs.deleteFinishedBefore(engine.clock.now() - PRINT_JOB_RETENTION_MS, limit));
}
