import { distanceKm, type LatLng } from '../domain/geo.ts';
import type {
  CourierCancellation,
  CourierCancelRequest,
  CourierDispatch,
  CourierDispatchRequest,
  CourierPlace,
  CourierProvider,
  CourierQuote,
  CourierQuoteRequest,
} from './courier-provider.ts';

export const SIMULATED_COURIER_NAME = 'simulado';

const BASE_FEE = 1990;
const FEE_PER_STARTED_KM = 450;
const MAX_DISTANCE_KM = 15;
const BASE_MINUTES = 20;
const MINUTES_PER_KM = 4;

/** Where the simulated tracking links point; `.invalid` never resolves, so no one is sent anywhere real. */
const DEFAULT_TRACKING_BASE_URL = 'https://simulado.comanda.invalid/seguimiento';

const coordinatesOf = (place: CourierPlace): LatLng | null =>
  place.lat === null || place.lng === null ? null : [place.lat, place.lng];

/**
 * The built-in courier of sandbox and demo: prices by straight-line distance, never calls out.
 * Everything it answers follows from its input alone, so tests can predict it.
 */
export class SimulatedCourier implements CourierProvider {
  readonly name = SIMULATED_COURIER_NAME;
  readonly label = 'Courier simulado';
  private readonly trackingBaseUrl: string;

  constructor(options: { trackingBaseUrl?: string } = {}) {
    this.trackingBaseUrl = options.trackingBaseUrl ?? DEFAULT_TRACKING_BASE_URL;
  }

  quote(request: CourierQuoteRequest): CourierQuote | null {
    const pickup = coordinatesOf(request.pickup);
    const dropoff = coordinatesOf(request.dropoff);
    // It does not geocode: without both ends' coordinates there is no distance to price.
    if (!pickup || !dropoff) return null;
    const distance = distanceKm(pickup, dropoff);
    if (distance > MAX_DISTANCE_KM) return null;
    return {
      // Both amounts are multiples of 10 CLP, so the fee needs no rounding.
      fee: BASE_FEE + FEE_PER_STARTED_KM * Math.ceil(distance),
      duration_minutes: Math.round(BASE_MINUTES + MINUTES_PER_KM * distance),
    };
  }

  dispatch(request: CourierDispatchRequest): CourierDispatch {
    // Derived from the order id, so dispatching the same order twice yields the same delivery.
    const deliveryId = `sim-${request.order_id}`;
    return { delivery_id: deliveryId, tracking_url: `${this.trackingBaseUrl}/${deliveryId}` };
  }

  cancel(request: CourierCancelRequest): CourierCancellation {
    return { delivery_id: request.delivery_id, cancelled: true };
  }
}
