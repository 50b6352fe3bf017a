import { createHash } from 'node:crypto';
import { parseApiKey } from '../engine/domain/api-key-format.ts';
import type { Engine } from '../engine/engine.ts';
import { ACTIVE_STATUSES } from '../shared/order-states.ts';
import type { OrderView } from '../engine/services/orders/order-view.ts';
import { applyCatalogue, applySnapshot, recordReplicaIdentity, type UpstreamCatalogue } from '../engine/services/replica/replica-pull.ts';
import { mirroredLocationIds, replicaState, SYNC_KEYS, type ReplicaIdentity } from '../engine/services/replica/replica-state.ts';
import { UpstreamUnreachable, type UpstreamClient, type UpstreamResponse } from './upstream-client.ts';
import type { UpstreamFeedPage, UpstreamLocations, UpstreamMenu, UpstreamOrderPage, UpstreamStock } from './upstream-types.ts';

export type { ReplicaIdentity };

/** The upstream refused the key: nothing will work until it is replaced. */
export class UpstreamRefusedKey extends Error {
  override readonly name = 'UpstreamRefusedKey';
}

const RECENT_ORDERS_MS = 24 * 60 * 60 * 1000;

export function expectOk<T>(response: UpstreamResponse<T>, what: string): T {
  if (response.status === 401) throw new UpstreamRefusedKey(`the platform refused the API key (${what})`);
  if (response.status !== 200) {
    // A 5xx, a 429 or a proxy's error: try again later, as for a network failure.
    throw new UpstreamUnreachable(`${what}: the platform answered ${response.status}`);
  }
  return response.body;
}

/**
 * Who the key is: its world from its prefix, its write permission by a harmless probe (a PATCH
 * on an order that cannot exist is 403 for a read key and 404 for a write key), and the local
 * restaurant that mirrors it. The key is registered locally, so local clients may use it too.
 */
export async function identifyReplica(engine: Engine, client: UpstreamClient, apiKey: string): Promise<ReplicaIdentity> {
  const parsed = parseApiKey(apiKey);
  if (!parsed) throw new UpstreamRefusedKey('COMANDA_UPSTREAM_KEY is not an API key (cm_live_… or cm_test_…)');
  const locations = expectOk(await client.call<UpstreamLocations>('GET', '/locations'), 'GET /locations');
  const probe = await client.call('PATCH', '/orders/00000000-0000-4000-8000-000000000000', { body: { status: 'cancelado' } });
  if (probe.status === 401) throw new UpstreamRefusedKey('the platform refused the API key');
  if (probe.status >= 500 || probe.status === 429) throw new UpstreamUnreachable(`write probe answered ${probe.status}`);
  const canWrite = probe.status !== 403;
  // A file that mirrors a restaurant is that restaurant's: a key of another one (none of its
  // locations is theirs) is refused before anything is written, never registered as a key of it.
  const known = await mirroredLocationIds(engine);
  if (known.length > 0) {
    const keys = new Set(locations.data.map((location) => location.location_id));
    if (!known.some((id) => keys.has(id))) {
      throw new UpstreamRefusedKey(
        `this replica's database mirrors another restaurant (none of its ${known.length} locations is one of this key's); ` +
          "start it with that restaurant's key, or on a new database file for this one",
      );
    }
  }
  const restaurantId =
    await replicaState(engine, SYNC_KEYS.restaurantId) ?? uuidFrom(createHash('sha256').update(`${client.base}\n${parsed.lookup}`).digest('hex'));
  const identity: ReplicaIdentity = { restaurantId, world: parsed.world, canWrite };
  await recordReplicaIdentity(engine, { identity, upstream: client.base, apiKey, registerMode: locations.register_mode });
  return identity;
}

function uuidFrom(hex: string): string {
  const h = hex.slice(0, 32).split('');
  h[12] = '5';
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

async function fetchCatalogue(client: UpstreamClient): Promise<UpstreamCatalogue> {
  const menu = expectOk(await client.call<UpstreamMenu>('GET', '/menu'), 'GET /menu');
  const locations = expectOk(await client.call<UpstreamLocations>('GET', '/locations'), 'GET /locations');
  const stock = new Map<string, UpstreamStock['data']>();
  for (const location of locations.data) {
    const page = expectOk(
      await client.call<UpstreamStock>('GET', `/stock?location_id=${location.location_id}`),
      'GET /stock',
    );
    stock.set(location.location_id, page.data);
  }
  return { menu, locations, stock };
}

/** Every upstream order a list query matches, page after page. */
export async function fetchOrdersWhere(client: UpstreamClient, query: string): Promise<OrderView[]> {
  const orders: OrderView[] = [];
  let cursor: string | null = null;
  do {
    const path: string = `/orders?limit=100&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: UpstreamOrderPage = expectOk(await client.call<UpstreamOrderPage>('GET', path), 'GET /orders');
    orders.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return orders;
}

async function fetchOrders(client: UpstreamClient, since: number): Promise<OrderView[]> {
  const byId = new Map<string, OrderView>();
  const add = (orders: OrderView[]) => orders.forEach((order) => byId.set(order.id, order));
  add(await fetchOrdersWhere(client, `from=${encodeURIComponent(new Date(since).toISOString())}`));
  for (const status of ACTIVE_STATUSES) add(await fetchOrdersWhere(client, `status=${status}`));
  return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/**
 * The first connection: the feed's current end is read BEFORE the snapshot, so an event that
 * commits meanwhile is applied again afterwards (applying is idempotent) rather than missed.
 * Snapshot and cursor are written in one transaction.
 */
export async function pullSnapshot(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity): Promise<void> {
  const start = expectOk(await client.call<UpstreamFeedPage>('GET', '/events?limit=1'), 'GET /events');
  const catalogue = await fetchCatalogue(client);
  const orders = await fetchOrders(client, engine.clock.now() - RECENT_ORDERS_MS);
  await applySnapshot(engine, identity, { catalogue, orders, cursor: start.next_cursor });
}

/** Later connections: the catalogue, locations and stock again (the feed carries no menu changes). */
export async function refreshCatalogue(engine: Engine, client: UpstreamClient, identity: ReplicaIdentity): Promise<void> {
  await applyCatalogue(engine, identity, await fetchCatalogue(client));
}
