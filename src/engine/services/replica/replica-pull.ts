// A replica's use cases for what it reads from its upstream outside the feeds (replica-feed.ts): who
// its key is, the first snapshot, the catalogue again, the locations' live status, an online order
// forwarded up. The sync door (src/sync) makes the calls, outside any transaction; each of these
// puts one answer in place in one transaction.
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import type { Engine, WriteTransaction } from '../../engine.ts';
import { registerExternalApiKey } from '../keys/api-keys.ts';
import type { LocationStatusView } from '../locations/location-status.ts';
import type { LocationsView } from '../locations/locations.ts';
import { mirrorCatalogue, mirrorLocation, mirrorOrder, mirrorRestaurant, mirrorStock } from './mirror-upstream.ts';
import type { OrderView } from '../orders/order-view.ts';
import type { MenuView } from '../menu/read-menu.ts';
import { SYNC_KEYS, type ReplicaIdentity } from './replica-state.ts';
import type { StockEntryView } from '../menu/stock.ts';

/** The upstream's catalogue as read: its menu, its locations and each location's stock. */
export interface UpstreamCatalogue {
  menu: MenuView;
  locations: LocationsView;
  stock: Map<string, StockEntryView[]>;
}

/** The restaurant the key mirrors, its upstream and write permission, and the key itself (local clients may use it too). */
export async function recordReplicaIdentity(
  engine: Engine,
  input: { identity: ReplicaIdentity; upstream: string; apiKey: string; registerMode: LocationsView['register_mode'] },
): Promise<void> {
  const { restaurantId, canWrite } = input.identity;
  await engine.transaction(async (tx) => {
    await mirrorRestaurant(engine, tx, {
      id: restaurantId,
      name: `Restaurante de ${new URL(input.upstream).host}`,
      registerMode: input.registerMode,
      timeZone: DEFAULT_TIME_ZONE, // the API does not say the upstream's zone
    });
    await tx.stores.sync.setState(SYNC_KEYS.restaurantId, restaurantId);
    await tx.stores.sync.setState(SYNC_KEYS.upstream, input.upstream);
    await tx.stores.sync.setState(SYNC_KEYS.canWrite, canWrite ? '1' : '0');
    await registerExternalApiKey(engine, { restaurantId, key: input.apiKey, write: canWrite, label: 'clave de la plataforma' }, tx);
  });
}

/** The first pull: catalogue, recent and active orders and the feed's cursor read before them, in one transaction. */
export async function applySnapshot(engine: Engine, identity: ReplicaIdentity, snapshot: { catalogue: UpstreamCatalogue; orders: OrderView[]; cursor: string }): Promise<void> {
  await engine.transaction(async (tx) => {
    await applyCatalogueIn(engine, tx, identity, snapshot.catalogue);
    for (const order of snapshot.orders) await mirrorOrder(engine, identity.restaurantId, identity.world, order, 'order.created', undefined, tx);
    await tx.stores.sync.setState(SYNC_KEYS.cursor, snapshot.cursor);
    await tx.stores.sync.setState(SYNC_KEYS.lastPullAt, String(engine.clock.now()));
  });
}

/** Later connections: the catalogue, locations and stock again (the feed carries no menu changes). */
export async function applyCatalogue(engine: Engine, identity: ReplicaIdentity, catalogue: UpstreamCatalogue): Promise<void> {
  await engine.transaction(async (tx) => await applyCatalogueIn(engine, tx, identity, catalogue));
}

async function applyCatalogueIn(engine: Engine, tx: WriteTransaction, identity: ReplicaIdentity, catalogue: UpstreamCatalogue): Promise<void> {
  const tracked = new Set<string>();
  for (const entries of catalogue.stock.values()) for (const entry of entries) tracked.add(entry.product_id);
  await mirrorLocationsIn(engine, tx, identity.restaurantId, catalogue.locations.data);
  await mirrorCatalogue(engine, tx, identity.restaurantId, catalogue.menu, tracked);
  for (const [locationId, entries] of catalogue.stock) await mirrorStock(engine, tx, identity.restaurantId, locationId, entries);
}

/** The locations' live status (schedules live upstream); a local open/close not pushed yet stands. */
export async function applyLocationStatuses(engine: Engine, restaurantId: string, statuses: readonly LocationStatusView[]): Promise<void> {
  await engine.transaction(async (tx) => await mirrorLocationsIn(engine, tx, restaurantId, statuses));
}

async function mirrorLocationsIn(engine: Engine, tx: WriteTransaction, restaurantId: string, statuses: readonly LocationStatusView[]): Promise<void> {
  for (const [position, status] of statuses.entries()) {
    if (!await tx.stores.sync.hasPendingOpenClose(status.location_id)) await mirrorLocation(engine, tx, restaurantId, status, position);
  }
}

/** An online-payment order the upstream created (with its payment session), mirrored here as it is. */
export async function mirrorForwardedOrder(engine: Engine, identity: ReplicaIdentity, order: OrderView): Promise<void> {
  await engine.transaction(async (tx) => await mirrorOrder(engine, identity.restaurantId, identity.world, order, 'order.created', { force: true }, tx));
}
