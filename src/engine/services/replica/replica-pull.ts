// A replica's use cases for what it reads from its upstream outside the feeds (replica-feed.ts): who
// its key is, the first snapshot, the catalogue again, the locations' live status, an online order
// forwarded up. The sync door (src/sync) makes the calls, outside any transaction; each of these
// puts one answer in place in one transaction.
import { DEFAULT_TIME_ZONE } from '../../../shared/locale.ts';
import type { Engine } from '../../engine.ts';
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
export function recordReplicaIdentity(
  engine: Engine,
  input: { identity: ReplicaIdentity; upstream: string; apiKey: string; registerMode: LocationsView['register_mode'] },
): void {
  const { restaurantId, canWrite } = input.identity;
  engine.transaction(() => {
    mirrorRestaurant(engine, {
      id: restaurantId,
      name: `Restaurante de ${new URL(input.upstream).host}`,
      registerMode: input.registerMode,
      timeZone: DEFAULT_TIME_ZONE, // the API does not say the upstream's zone
    });
    engine.stores.sync.setState(SYNC_KEYS.restaurantId, restaurantId);
    engine.stores.sync.setState(SYNC_KEYS.upstream, input.upstream);
    engine.stores.sync.setState(SYNC_KEYS.canWrite, canWrite ? '1' : '0');
    registerExternalApiKey(engine, { restaurantId, key: input.apiKey, write: canWrite, label: 'clave de la plataforma' });
  });
}

/** The first pull: catalogue, recent and active orders and the feed's cursor read before them, in one transaction. */
export function applySnapshot(engine: Engine, identity: ReplicaIdentity, snapshot: { catalogue: UpstreamCatalogue; orders: OrderView[]; cursor: string }): void {
  engine.transaction(() => {
    applyCatalogueIn(engine, identity, snapshot.catalogue);
    for (const order of snapshot.orders) mirrorOrder(engine, identity.restaurantId, identity.world, order, 'order.created');
    engine.stores.sync.setState(SYNC_KEYS.cursor, snapshot.cursor);
    engine.stores.sync.setState(SYNC_KEYS.lastPullAt, String(engine.clock.now()));
  });
}

/** Later connections: the catalogue, locations and stock again (the feed carries no menu changes). */
export function applyCatalogue(engine: Engine, identity: ReplicaIdentity, catalogue: UpstreamCatalogue): void {
  engine.transaction(() => applyCatalogueIn(engine, identity, catalogue));
}

function applyCatalogueIn(engine: Engine, identity: ReplicaIdentity, catalogue: UpstreamCatalogue): void {
  const tracked = new Set<string>();
  for (const entries of catalogue.stock.values()) for (const entry of entries) tracked.add(entry.product_id);
  mirrorLocationsIn(engine, identity.restaurantId, catalogue.locations.data);
  mirrorCatalogue(engine, identity.restaurantId, catalogue.menu, tracked);
  for (const [locationId, entries] of catalogue.stock) mirrorStock(engine, identity.restaurantId, locationId, entries);
}

/** The locations' live status (schedules live upstream); a local open/close not pushed yet stands. */
export function applyLocationStatuses(engine: Engine, restaurantId: string, statuses: readonly LocationStatusView[]): void {
  engine.transaction(() => mirrorLocationsIn(engine, restaurantId, statuses));
}

function mirrorLocationsIn(engine: Engine, restaurantId: string, statuses: readonly LocationStatusView[]): void {
  statuses.forEach((status, position) => {
    if (!engine.stores.sync.hasPendingOpenClose(status.location_id)) mirrorLocation(engine, restaurantId, status, position);
  });
}

/** An online-payment order the upstream created (with its payment session), mirrored here as it is. */
export function mirrorForwardedOrder(engine: Engine, identity: ReplicaIdentity, order: OrderView): void {
  engine.transaction(() => mirrorOrder(engine, identity.restaurantId, identity.world, order, 'order.created', { force: true }));
}
