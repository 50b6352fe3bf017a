import type { LocationsView } from '../engine/services/locations/locations.ts';
import type { OrderPage } from '../engine/services/orders/read-orders.ts';
import type { MenuView } from '../engine/services/menu/read-menu.ts';
import type { StockEntryView } from '../engine/services/menu/stock.ts';
import type { FeedPage } from '../engine/services/feed/change-feed.ts';

// The upstream speaks the same API v1 as this engine: its answers have the same shapes.
export type UpstreamLocations = LocationsView;
export type UpstreamOrderPage = OrderPage;
export type UpstreamMenu = MenuView;
export type UpstreamStock = { data: StockEntryView[] };
export type UpstreamFeedPage = FeedPage;
export type UpstreamError = { error: { code: string; message: string } };
