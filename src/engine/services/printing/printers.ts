// A restaurant's kitchen printers: added, listed and removed by the printers CLI and the desktop's
// Ajustes → Impresoras. Every field from outside is checked here, with a clear error naming it.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { PRINT_WHEN, type PrintStatus, type PrintWhen, type PrinterEntry } from '../../../shared/screen-contract/printers.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { formatNullableInstant } from '../../domain/time.ts';
import type { Engine, ReadTransaction, WriteTransaction } from '../../engine.ts';
import { PRINTER_CODE_PAGES, type PrinterCodePage } from '../../printers/escpos-ticket.ts';
import type { PrinterRow } from '../../store/printers-store.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';

export const DEFAULT_PRINTER_PORT = 9100;
export const DEFAULT_FALLBACK_SECONDS = 60;
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export interface PrinterInput {
  name: string;
  host: string;
  port?: number;
  width_mm: number;
  code_page?: string;
  stations?: string[];
  when: string[];
  fallback_seconds?: number;
}

async function restaurantOf(engine: Engine, restaurantId: string, tx: ReadTransaction) {
  const restaurant = await tx.stores.restaurants.get(restaurantId);
  if (!restaurant) throw notFound(`restaurant ${restaurantId} not found`);
  return restaurant;
}

export function parseJsonList(text: string): string[] {
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function toPrinterEntry(engine: Engine, row: PrinterRow, zone: string, queued: number, setAside = 0): PrinterEntry {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    width_mm: row.width_mm,
    code_page: row.code_page,
    stations: parseJsonList(row.stations),
    when: parseJsonList(row.print_when) as PrintWhen[],
    fallback_seconds: row.fallback_seconds,
    state: row.state,
    state_detail: row.state_detail,
    state_at: formatNullableInstant(row.state_at, zone),
    queued,
    set_aside: setAside,
  };
}

/** Per printer, its jobs waiting to print (queued or being sent) and those set aside. */
async function jobCounts(engine: Engine, tx: ReadTransaction, restaurantId: string): Promise<{ waiting: Map<string, number>; setAside: Map<string, number> }> {
  const waiting = new Map<string, number>();
  const setAside = new Map<string, number>();
  for (const count of await tx.stores.printJobs.openCounts(restaurantId)) {
    if (count.status === 'held') continue;
    const into = count.status === 'set_aside' ? setAside : waiting;
    into.set(count.printer_id, (into.get(count.printer_id) ?? 0) + count.n);
  }
  return { waiting, setAside };
}

/** The restaurant's printers with their state and how many jobs each has waiting. */
export async function listPrinters(engine: Engine, restaurantId: string): Promise<PrinterEntry[]> {
  return await engine.read(async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    const { waiting, setAside } = await jobCounts(engine, tx, restaurant.id);
    return (await tx.stores.printers
      .list(restaurant.id))
      .map((row) => toPrinterEntry(engine, row, restaurant.time_zone, waiting.get(row.id) ?? 0, setAside.get(row.id) ?? 0));
  });
}

/** Checks a printer's settings from outside; throws invalid_request naming the field. */
async function checkInput(engine: Engine, tx: WriteTransaction, restaurantId: string, input: PrinterInput) {
  const name = input.name?.trim() ?? '';
  if (name.length === 0 || name.length > 60) throw invalidRequest('name: 1 to 60 characters');
  const host = input.host?.trim() ?? '';
  if (isIP(host) === 0 && !HOST_NAME.test(host)) throw invalidRequest(`host: not an IP address or host name: ${JSON.stringify(input.host)}`);
  const port = input.port ?? DEFAULT_PRINTER_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalidRequest(`port: an integer from 1 to 65535 (printers listen on 9100), not ${input.port}`);
  if (input.width_mm !== 58 && input.width_mm !== 80) throw invalidRequest(`width: 58 or 80 (mm of paper), not ${input.width_mm}`);
  const codePage = input.code_page ?? 'cp858';
  if (!PRINTER_CODE_PAGES.includes(codePage as PrinterCodePage)) {
    throw invalidRequest(`code page: one of ${PRINTER_CODE_PAGES.join(', ')}, not ${JSON.stringify(codePage)}`);
  }
  const when = [...new Set(input.when.map((w) => w.trim()).filter((w) => w !== ''))];
  if (when.length === 0) throw invalidRequest(`when: at least one of ${PRINT_WHEN.join(', ')}`);
  const unknownWhen = when.filter((w) => !PRINT_WHEN.includes(w as PrintWhen));
  if (unknownWhen.length > 0) throw invalidRequest(`when: unknown ${unknownWhen.join(', ')} (use ${PRINT_WHEN.join(', ')})`);
  const known = (await readKitchenSettings(engine, restaurantId, tx)).stations.map((s) => s.id);
  const stations = [...new Set((input.stations ?? []).map((s) => s.trim()).filter((s) => s !== ''))];
  const unknownStations = stations.filter((s) => !known.includes(s));
  if (unknownStations.length > 0) {
    throw invalidRequest(`stations: unknown ${unknownStations.join(', ')} (the restaurant's stations: ${known.join(', ') || 'none'})`);
  }
  const fallbackSeconds = input.fallback_seconds ?? DEFAULT_FALLBACK_SECONDS;
  if (!Number.isInteger(fallbackSeconds) || fallbackSeconds < 5 || fallbackSeconds > 3600) {
    throw invalidRequest(`fallback seconds: an integer from 5 to 3600, not ${input.fallback_seconds}`);
  }
  return { name, host, port, width_mm: input.width_mm as 58 | 80, code_page: codePage, stations, when: when as PrintWhen[], fallback_seconds: fallbackSeconds };
}

export async function addPrinter(engine: Engine, restaurantId: string, input: PrinterInput): Promise<PrinterEntry> {
  return await engine.transaction(async (tx) => {
    const restaurant = await restaurantOf(engine, restaurantId, tx);
    const checked = await checkInput(engine, tx, restaurant.id, input);
    if (await tx.stores.printers.findByName(restaurant.id, checked.name)) throw invalidRequest(`name: a printer named ${JSON.stringify(checked.name)} exists already`);
    const now = engine.clock.now();
    const row: PrinterRow = {
      id: randomUUID(),
      restaurant_id: restaurant.id,
      name: checked.name,
      host: checked.host,
      port: checked.port,
      width_mm: checked.width_mm,
      code_page: checked.code_page,
      stations: JSON.stringify(checked.stations),
      print_when: JSON.stringify(checked.when),
      fallback_seconds: checked.fallback_seconds,
      state: 'unknown',
      state_detail: null,
      state_at: null,
      created_at: now,
      updated_at: now,
      removed_at: null,
    };
    await tx.stores.printers.insert(row);
    return toPrinterEntry(engine, row, restaurant.time_zone, 0);
  });
}

/** The printer named by id or by name, in use. */
export async function findPrinter(engine: Engine, tx: ReadTransaction, restaurantId: string, idOrName: string): Promise<PrinterRow> {
  const restaurant = await restaurantOf(engine, restaurantId, tx);
  const byId = await tx.stores.printers.get(idOrName);
  const row = byId && byId.restaurant_id === restaurant.id && byId.removed_at === null ? byId : await tx.stores.printers.findByName(restaurant.id, idOrName);
  if (!row) throw notFound(`printer ${idOrName} not found in restaurant ${restaurant.id}`);
  return row;
}

/** Removes a printer; its jobs not printed yet are dropped (they would never go anywhere). */
export async function removePrinter(engine: Engine, restaurantId: string, idOrName: string): Promise<{ id: string; name: string; dropped_jobs: number }> {
  return await engine.transaction(async (tx) => {
    const row = await findPrinter(engine, tx, restaurantId, idOrName);
    const now = engine.clock.now();
    await tx.stores.printers.remove(row.id, now);
    const dropped = await tx.stores.printJobs.dropOpenOf(row.id, now);
    return { id: row.id, name: row.name, dropped_jobs: dropped };
  });
}

/** What the board's status strip says about printing: each printer with jobs waiting or in trouble. */
export async function printStatusOf(engine: Engine, restaurantId: string, tx?: ReadTransaction): Promise<PrintStatus[]> {
  return await engine.readWithin(tx, async (tx) => {
    const { waiting, setAside } = await jobCounts(engine, tx, restaurantId);
    return (await tx.stores.printers
      .list(restaurantId))
      .map((p) => ({ printer_id: p.id, name: p.name, state: p.state, queued: waiting.get(p.id) ?? 0, set_aside: setAside.get(p.id) ?? 0 }))
      .filter((p) => p.queued > 0 || p.set_aside > 0 || p.state === 'unreachable' || p.state === 'paper_out');
  });
}
