import { mapInOrder } from '../../../shared/in-order.ts';
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { CreateOrderInput } from '../../../shared/schemas/orders.ts';
import { ApiError, invalidRequest } from '../../domain/errors.ts';
import { chooseModifiers, orderTotals, productBasePrice } from '../../domain/order-pricing.ts';
import { parseInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import { paymentProviderFor, type PaymentProviders } from '../../payments/payment-provider.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import type { OrderRow } from '../../store/orders-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import type { Actor } from '../../domain/actor.ts';
import { deliveryProviderFor, parseDeliverySettings } from '../../domain/delivery-settings.ts';
import { locationOpenState } from '../locations/location-status.ts';
import { toOrderView, type OrderItemView, type OrderView } from './order-view.ts';
import { orderChannel } from './order-channel.ts';
import { promiseAndFire } from '../kitchen/kitchen-promise.ts';
import { applyHeldDecisions } from '../kitchen/held-lines.ts';
import { refuseWhenBusy } from '../kitchen/busy-mode.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { recordStockChange } from '../menu/stock-events.ts';
import { soldOutAt } from '../menu/sold-out.ts';
import { queueArrivalTickets } from '../printing/print-jobs.ts';
import { testColumn, type World } from '../../../shared/world.ts';

const MAX_SCHEDULE_AHEAD_DAYS = 7;

export interface CreateOrderOptions {
  payments: PaymentProviders;
  /** Where the client reached us, for the sandbox payment page link. */
  origin: string;
  /** Set only by integrations (and the demo seed): the POS that owns the order. */
  managedBy?: string;
  /** The caller's open transaction (an API write kept under its Idempotency-Key): the order is written in it. */
  tx?: WriteTransaction;
}

/**
 * Creates an order with catalogue prices, taking tracked stock atomically (production keys only),
 * in one transaction with its `order.created` event. An online order is the first half of its
 * creation: written `pendiente_pago` with its stock taken and its payment session `opening`; the
 * provider is asked after the commit, and only then is it announced (or withdrawn): see
 * services/payments/open-online-payment.ts.
 */
export async function createOrder(engine: Engine, actor: Actor, input: CreateOrderInput, options: CreateOrderOptions): Promise<OrderView> {
  requireWrite(actor);
  return await engine.within(options.tx, async (tx) => {
    // First (issue 34): on PostgreSQL the restaurant's orders commit one after another, on every node.
    await tx.takeRestaurant(actor.restaurantId);
    const restaurant = await restaurantOf(engine, actor, tx);
    const world = actor.world;
    const now = engine.clock.now();
    const location = await tx.stores.locations.get(restaurant.id, input.location_id.toLowerCase());
    if (!location) throw invalidRequest(`location_id: unknown location ${input.location_id}`);

    // Field combinations (address for delivery, an https return_url for online, payment_method
    // only online) are rules of CreateOrderBody, checked with the rest of the request's schema.
    // Its pattern for return_url is what a JSON Schema can say; the URL parser has the last word.
    if (input.payment === 'online' && !isHttpsUrl(input.return_url ?? '')) throw invalidRequest('return_url must be an https URL');
    const scheduledFor = readScheduledFor(input, restaurant, location, now);
    // Every 400 is decided before any 409, so a malformed request is always told so first.
    const items = await priceItems(engine, tx, restaurant.id, input);
    if (location.is_active !== 1) {
      throw new ApiError('location_inactive', `location ${location.id} (${location.name}) is deactivated`);
    }
    if (world === 'live' && scheduledFor === null && !(await locationOpenState(engine, tx, restaurant, location, now)).openNow) {
      throw new ApiError('location_closed', `location ${location.id} (${location.name}) is closed now`);
    }
    await takeStock(engine, tx, restaurant, location, items, world, now);
    const shippingFee = input.type === 'retiro' ? 0 : (input.shipping_fee ?? 0);
    const totals = orderTotals(items, shippingFee);
    // Issue 32: a store front's order while the kitchen is paused (busy mode) is refused, 503 after
    // every 409; issue 33: what it was is noted for Informes.
    await refuseWhenBusy(engine, tx, actor, restaurant, location, options.managedBy, items.map((i) => i.view), world, {
      type: input.type,
      lines: items.length,
      total: totals.total,
    });
    const online = input.payment === 'online';
    const provider = input.type === 'delivery' ? deliveryProviderFor(parseDeliverySettings(location.delivery)) : null;
    const row: OrderRow = {
      id: randomUUID(),
      restaurant_id: restaurant.id,
      test: testColumn(world),
      number: await tx.stores.restaurants.takeOrderNumber(restaurant.id, world),
      status: online ? 'pendiente_pago' : scheduledFor !== null ? 'programado' : 'recibido',
      type: input.type,
      location_id: location.id,
      customer_name: input.customer.name.trim(),
      customer_phone: input.customer.phone ?? null,
      customer_email: input.customer.email ?? null,
      address: input.type === 'delivery' ? input.address!.trim() : null,
      notes: input.notes ?? null,
      items: JSON.stringify(items.map((i) => i.view)),
      ...totals,
      payment_kind: online ? 'online' : 'external',
      payment_method: online ? null : 'efectivo',
      paid: 0,
      refunded: 0,
      delivery_provider: provider,
      delivery_status: null,
      delivery_tracking_url: null,
      scheduled_for: scheduledFor,
      stock_taken: world === 'test' ? 0 : 1,
      managed_by: options.managedBy ?? null,
      created_at: now,
      updated_at: now,
    };
    await tx.stores.orders.insert(row);
    await tx.stores.kitchenData.setChannel(row.id, await orderChannel(engine, tx, actor, options.managedBy));
    // Issue 32: the kitchen's promise for it, and its lines fired to their stations when it goes there now.
    const { view: promise, held } = await promiseAndFire(engine, tx, restaurant, location, row, actor.keyId, now);
    // Lines held to finish with other orders and due by now fire in this transaction (the jobs fire the rest when due).
    await applyHeldDecisions(engine, tx, held, now);

    if (online) {
      const payments = paymentProviderFor(options.payments, restaurant.id, world);
      if (!payments) {
        throw new ApiError('payment_unavailable', 'online payment is not available: no payment provider is configured');
      }
      // The session is written with the order; its provider is asked after this commit.
      await tx.stores.paymentSessions.insert({
        id: `ps_${world}_${randomUUID().replaceAll('-', '')}`,
        order_id: row.id,
        provider: payments.name,
        return_url: input.return_url!,
        preselected_method: input.payment_method ?? null,
        created_at: now,
      });
    }

    const view = toOrderView(row, restaurant.time_zone);
    // An online order is announced once its provider has opened its payment page
    // (open-online-payment.ts): one whose provider never did was never created, as far as anyone hears.
    if (!online) await tx.stores.events.appendWithoutSeq(restaurant.id, world, 'order.created', now, view);
    // It reaches the kitchen now (an online one once paid: transition-order.ts): its tickets are printed after the commit.
    // On a replica too, with the number it answered ("L7"): the upstream's number comes later (shared/order-number.ts).
    if (!online) await queueArrivalTickets(engine, tx, row, now);
    // The promise is this answer's (and its replay's), not the order's: its events and reads stay the order as it is.
    return promise ? { ...view, promise } : view;
  });
}

function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

function readScheduledFor(input: CreateOrderInput, restaurant: RestaurantRow, location: LocationRow, now: number): number | null {
  if (input.scheduled_for === undefined || input.scheduled_for === null) return null;
  const at = parseInstant(input.scheduled_for, restaurant.time_zone);
  if (at === null) throw invalidRequest('scheduled_for must be an ISO 8601 date-time');
  const lead = location.preparation_lead_minutes;
  if (at < now + lead * 60_000) {
    throw invalidRequest(`scheduled_for must be at least ${lead} minutes ahead (the location's preparation lead)`);
  }
  const latest = DateTime.fromMillis(now, { zone: restaurant.time_zone }).plus({ days: MAX_SCHEDULE_AHEAD_DAYS });
  if (at > latest.toMillis()) throw invalidRequest(`scheduled_for must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`);
  return at;
}

interface PricedItem {
  productId: string;
  productName: string;
  trackStock: boolean;
  quantity: number;
  unit_price: number;
  /** The options chosen, by id and name (the sold-out check). */
  options: { id: string; name: string }[];
  view: OrderItemView;
}

async function priceItems(engine: Engine, tx: WriteTransaction, restaurantId: string, input: CreateOrderInput): Promise<PricedItem[]> {
  return (await mapInOrder(input.items, async (item, index) => {
    const path = `items[${index}]`;
    const product = await tx.stores.catalogue.product(restaurantId, item.product_id.toLowerCase());
    if (!product) throw invalidRequest(`${path}.product_id: unknown product ${item.product_id}`);
    if (product.orderable !== 1) throw invalidRequest(`${path}.product_id: product ${product.id} (${product.name}) is not on sale`);
    const productOptions = await tx.stores.catalogue.modifierOptions(product.id);
    const modifiers = chooseModifiers(
      product,
      (await tx.stores.catalogue.modifierGroups(product.id)).map((g) => ({ ...g, required: g.required === 1 })),
      productOptions,
      (item.modifier_option_ids ?? []).map((id) => id.toLowerCase()),
      path,
    );
    const unitPrice = productBasePrice(product) + modifiers.reduce((sum, m) => sum + m.price, 0);
    const chosen = new Set((item.modifier_option_ids ?? []).map((id) => id.toLowerCase()));
    return {
      options: productOptions.filter((o) => chosen.has(o.id)).map((o) => ({ id: o.id, name: o.name })),
      productId: product.id,
      productName: product.name,
      trackStock: product.track_stock === 1,
      quantity: item.quantity,
      unit_price: unitPrice,
      view: {
        product_id: product.id,
        name: product.name,
        quantity: item.quantity,
        unit_price: unitPrice,
        notes: item.notes ?? null,
        modifiers,
      },
    };
  }));
}

/**
 * Takes every tracked product, each in one statement that takes only if enough is there (a sandbox
 * order only checks). A refusal gives back what this order took before it, so stock is left as it
 * was, and is answered with what there was.
 */
async function takeStock(
  engine: Engine, tx: WriteTransaction,
  restaurant: RestaurantRow,
  location: LocationRow,
  items: PricedItem[],
  world: World,
  now: number,
): Promise<void> {
  await refuseSoldOut(engine, tx, location, items, now);
  const needed = new Map<string, { name: string; quantity: number }>();
  for (const item of items) {
    if (!item.trackStock) continue;
    const entry = needed.get(item.productId) ?? { name: item.productName, quantity: 0 };
    entry.quantity += item.quantity;
    needed.set(item.productId, entry);
  }
  const refuse = (productId: string, name: string, quantity: number, left: number) =>
    new ApiError('insufficient_stock', `not enough stock of ${name} (${productId}) at ${location.name}: ${quantity} requested, ${left} left`);
  if (world === 'test') {
    for (const [productId, { name, quantity }] of needed) {
      const left = await tx.stores.stock.quantity(location.id, productId);
      if (left < quantity) throw refuse(productId, name, quantity, left);
    }
    return;
  }
  if (needed.size === 0) return;
  const left = new Map<string, number>();
  for (const [productId, { name, quantity }] of needed) {
    const take = await tx.stores.stock.takeIfThere(location.id, productId, quantity);
    if (!take.taken) {
      for (const [takenId] of left) await tx.stores.stock.restore(location.id, takenId, needed.get(takenId)!.quantity);
      throw refuse(productId, name, quantity, take.left);
    }
    left.set(productId, take.left);
  }
  await recordStockChange(engine, tx, restaurant.id, location.id, [...needed.keys()], now, left);
}

/** A dish or option switched "agotado" at the location is refused like missing stock (sandbox keys too). */
async function refuseSoldOut(engine: Engine, tx: WriteTransaction, location: LocationRow, items: PricedItem[], now: number): Promise<void> {
  const soldOut = await soldOutAt(engine, tx, location.id, now);
  if (soldOut.products.size === 0 && soldOut.options.size === 0) return;
  for (const item of items) {
    if (soldOut.products.has(item.productId)) {
      throw new ApiError('insufficient_stock', `${item.productName} (${item.productId}) is sold out (agotado) at ${location.name}`);
    }
    const option = item.options.find((o) => soldOut.options.has(o.id));
    if (option) {
      throw new ApiError('insufficient_stock', `${option.name} (${option.id}) of ${item.productName} is sold out (agotado) at ${location.name}`);
    }
  }
}
