import { isEarlierStatus } from '../../../shared/order-states.ts';
import { parseInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { KnownLocationStatus, LocationStatusView } from '../locations/location-status.ts';
import { toOrderView, type OrderView } from '../orders/order-view.ts';
import type { MenuView } from '../menu/read-menu.ts';
import { queueMirroredPrints } from '../printing/print-jobs.ts';
import { recordStockChange } from '../menu/stock-events.ts';
import { restaurantTimeZone } from '../keys/restaurant-context.ts';
import type { World } from '../../../shared/world.ts';

// A replica mirrors what its upstream reports. Each function writes the local copy and the local
// change-feed event (so the kitchen screen and local API clients see it); the caller runs it in the
// transaction that also advances the feed cursor.

export interface MirroredRestaurant {
  id: string;
  name: string;
  registerMode: 'manual' | 'schedule';
  timeZone: string;
}

export async function mirrorRestaurant(engine: Engine, tx: WriteTransaction, restaurant: MirroredRestaurant): Promise<void> {
  await tx.stores.mirror.upsertRestaurant(restaurant.id, restaurant.name, restaurant.registerMode, restaurant.timeZone, engine.clock.now());
}

export async function mirrorLocation(engine: Engine, tx: WriteTransaction, restaurantId: string, view: LocationStatusView, position: number): Promise<void> {
  const timeZone = await restaurantTimeZone(engine, restaurantId, tx);
  const known: KnownLocationStatus = {
    open_now: view.open_now,
    reason: view.reason,
    next_opening_at: view.next_opening_at === null ? null : parseInstant(view.next_opening_at, timeZone),
  };
  const before = await tx.stores.mirror.location(view.location_id);
  await tx.stores.mirror.upsertLocation(view.location_id, restaurantId, view.name, view.address, view.is_active, position, JSON.stringify(known));
  const changed =
    !before ||
    before.known_status !== JSON.stringify(known) ||
    before.is_active !== (view.is_active ? 1 : 0) ||
    before.name !== view.name ||
    before.address !== view.address;
  if (changed) {
    // The local feed reports the status, never the upstream's sandbox marker.
    const { simulated: _simulated, ...status } = view as LocationStatusView & { simulated?: boolean };
    await tx.stores.events.append(restaurantId, 'both', 'location.updated', engine.clock.now(), status);
  }
}

/**
 * The upstream's menu as the local catalogue. Products the menu no longer shows become inactive;
 * `tracked` says which products have stock (the menu does not tell).
 */
export async function mirrorCatalogue(engine: Engine, tx: WriteTransaction, restaurantId: string, menu: MenuView, tracked: Set<string>): Promise<void> {
  await tx.stores.mirror.deactivateCatalogue(restaurantId);
  for (const [categoryPosition, category] of menu.categories.entries()) {
    await tx.stores.mirror.upsertCategory(category.id, restaurantId, category.name, category.description, categoryPosition);
    for (const [productPosition, product] of category.products.entries()) {
      await tx.stores.mirror.upsertProduct({
        id: product.id,
        restaurant_id: restaurantId,
        category_id: category.id,
        slug: product.slug,
        name: product.name,
        description: product.description,
        price: product.price,
        offer_price: product.offer_price,
        image_url: product.image_url,
        track_stock: tracked.has(product.id) ? 1 : 0,
        position: productPosition,
      });
      await tx.stores.mirror.replaceModifiers(product.id, product.modifier_groups);
    }
  }
}

/**
 * Absolute quantities the upstream reports. Products with a local write not yet pushed keep the
 * local value: the push will bring the upstream in line, and its event will confirm it.
 */
export async function mirrorStock(
  engine: Engine, tx: WriteTransaction,
  restaurantId: string,
  locationId: string,
  items: { product_id: string; quantity: number }[],
  options: { force?: boolean } = {},
): Promise<void> {
  if (!await tx.stores.locations.get(restaurantId, locationId)) return;
  // A local write not yet pushed stands, unless the upstream's quantity won a conflict (`force`).
  const pending = options.force ? new Set<string>() : await tx.stores.sync.productsWithPendingStock(locationId);
  const changed: string[] = [];
  for (const item of items) {
    if (pending.has(item.product_id) || !await tx.stores.catalogue.product(restaurantId, item.product_id)) continue;
    if (await tx.stores.stock.quantity(locationId, item.product_id) === item.quantity) continue;
    await tx.stores.stock.set(locationId, item.product_id, item.quantity);
    changed.push(item.product_id);
  }
  if (changed.length > 0) await recordStockChange(engine, tx, restaurantId, locationId, changed, engine.clock.now());
}

/** Upstream orders in the world the replica mirrors (its platform key's). */
export async function mirrorOrder(
  engine: Engine,
  restaurantId: string,
  world: World,
  view: OrderView,
  eventType: 'order.created' | 'order.updated',
  options: { force?: boolean } = {},
  callerTx?: WriteTransaction,
): Promise<void> {
  return await engine.within(callerTx, async (tx) => {
    // A local change not yet pushed would be undone by an older upstream state: the push decides,
    // unless the upstream just refused that change (then its state wins: `force`).
    if (!options.force && await tx.stores.sync.hasPendingForOrder(view.id)) return;
    const restaurant = await tx.stores.restaurants.get(restaurantId);
    if (!restaurant) return;
    const zone = restaurant.time_zone;
    const existing = await tx.stores.orders.getById(view.id);
    // A feed page read before this replica's own push landed can arrive after it: a view in an earlier
    // state is older (no transition goes back) and never replaces the one kept. Times are not compared:
    // the two clocks may disagree. The upstream's refusal and the divergence check's healing force it.
    if (existing && !options.force && isEarlierStatus(view.status, existing.status)) return;
    const row: OrderRow = {
      id: view.id,
      restaurant_id: restaurantId,
      test: world === 'test' ? 1 : 0,
      number: view.number,
      status: view.status,
      type: view.type,
      location_id: view.location_id !== null && await tx.stores.locations.get(restaurantId, view.location_id) ? view.location_id : null,
      customer_name: view.customer.name,
      customer_phone: view.customer.phone,
      customer_email: view.customer.email,
      address: view.address,
      notes: view.notes,
      items: JSON.stringify(view.items),
      subtotal: view.subtotal,
      shipping_fee: view.shipping_fee,
      discount: view.discount,
      total: view.total,
      payment_kind: view.payment.method === 'efectivo' ? 'external' : 'online',
      payment_method: view.payment.method,
      paid: view.payment.paid ? 1 : 0,
      refunded: amountRefundedOf(view.payment),
      delivery_provider: view.delivery?.provider ?? null,
      delivery_status: view.delivery?.status ?? null,
      delivery_tracking_url: view.delivery?.tracking_url ?? null,
      scheduled_for: view.scheduled_for === null ? null : parseInstant(view.scheduled_for, zone),
      // Production orders hold stock until cancelled; a local cancel gives it back locally at once.
      stock_taken: world === 'live' && view.status !== 'cancelado' ? 1 : 0,
      managed_by: view.managed_by_integrator ? (existing?.managed_by ?? 'integration') : null,
      created_at: parseInstant(view.created_at, zone) ?? engine.clock.now(),
      updated_at: parseInstant(view.updated_at, zone) ?? engine.clock.now(),
    };
    if (existing && JSON.stringify(toOrderView(existing, zone)) === JSON.stringify(toOrderView(row, zone))) return;
    await tx.stores.orders.upsert(row);
    await tx.stores.events.append(restaurantId, world, existing ? 'order.updated' : eventType, engine.clock.now(), toOrderView(row, zone));
    // The restaurant's printers are this replica's: an order reaching its kitchen from upstream prints here.
    await queueMirroredPrints(engine, tx, existing, row, engine.clock.now());
  });
}

/**
 * A replica's own open/close, before the upstream confirms it: the register (manual mode) or
 * today's exception (schedule mode) is what the upstream will apply, so the local status follows
 * at once. The upstream's next report replaces this guess.
 */
export async function setKnownLocationOpen(engine: Engine, restaurantId: string, locationId: string, open: boolean, callerTx?: WriteTransaction): Promise<void> {
  return await engine.within(callerTx, async (tx) => {
    const restaurant = await tx.stores.restaurants.get(restaurantId);
    const location = await tx.stores.locations.get(restaurantId, locationId);
    if (!restaurant || !location || location.known_status === null) return;
    const known = JSON.parse(location.known_status) as KnownLocationStatus;
    if (location.is_active !== 1) return;
    const manual = restaurant.register_mode === 'manual';
    const next: KnownLocationStatus = open
      ? { open_now: true, reason: manual ? 'caja_abierta' : 'dentro_del_horario', next_opening_at: null }
      : { open_now: false, reason: manual ? 'caja_cerrada' : 'fuera_del_horario', next_opening_at: manual ? null : known.next_opening_at };
    await tx.stores.mirror.setKnownStatus(locationId, JSON.stringify(next));
  });
}

/**
 * The CLP an upstream says it gave back: `amount_refunded` (an upstream of this release), the
 * number `refunded` carried before it became a boolean (an older engine), or nothing (an upstream
 * from before refunds). A `refunded: true` without an amount is not invented into one.
 */
export function amountRefundedOf(payment: OrderView['payment'] | { refunded?: unknown; amount_refunded?: unknown }): number {
  const { amount_refunded: amount, refunded } = payment as { refunded?: unknown; amount_refunded?: unknown };
  if (typeof amount === 'number' && Number.isInteger(amount) && amount >= 0) return amount;
  if (typeof refunded === 'number' && Number.isInteger(refunded) && refunded >= 0) return refunded;
  return 0;
}
