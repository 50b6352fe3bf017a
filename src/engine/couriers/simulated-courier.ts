import { DateTime } from 'luxon';
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
  CourierTracking,
  CourierTrackRequest,
} from './courier-provider.ts';

export const SIMULATED_COURIER_NAME = 'simulado';

const BASE_FEE = 1990;
const FEE_PER_STARTED_KM = 450;
const MAX_DISTANCE_KM = 15;
const BASE_MINUTES = 20;
const MINUTES_PER_KM = 4;

/** Minutes after dispatch at which the simulated courier reaches each status. */
export interface SimulatedCourierSteps {
  /** `pendiente` → `asignado`: a courier accepts the delivery. */
  assignedAfterMinutes: number;
  /** `asignado` → `en_camino`: the courier picks the order up (the order goes to `en_reparto`). */
  pickedUpAfterMinutes: number;
  /** `en_camino` → `entregado`: the customer gets it (the order goes to `entregado`). */
  deliveredAfterMinutes: number;
}

export const DEFAULT_SIMULATED_STEPS: SimulatedCourierSteps = {
  assignedAfterMinutes: 2,
  pickedUpAfterMinutes: 10,
  deliveredAfterMinutes: 30,
};

/** Where the simulated tracking links point; `.invalid` never resolves, so no one is sent anywhere real. */
const DEFAULT_TRACKING_BASE_URL = 'https://simulado.comanda.invalid/seguimiento';

const coordinatesOf = (place: CourierPlace): LatLng | null =>
  place.lat === null || place.lng === null ? null : [place.lat, place.lng];

/**
 * The built-in courier of sandbox and demo: prices by straight-line distance, never calls out. It
 * is asynchronous like any courier and goes through the same intents and jobs.
 * Everything it answers follows from its input alone, so tests can predict it: its delivery's
 * status is a function of the dispatch time and the time asked about (the engine's clock), so it
 * keeps no state and survives restarts.
 */
export class SimulatedCourier implements CourierProvider {
  readonly name = SIMULATED_COURIER_NAME;
  readonly label = 'Courier simulado';
  private readonly trackingBaseUrl: string;
  private readonly steps: SimulatedCourierSteps;

  constructor(options: { trackingBaseUrl?: string; steps?: Partial<SimulatedCourierSteps> } = {}) {
    this.trackingBaseUrl = options.trackingBaseUrl ?? DEFAULT_TRACKING_BASE_URL;
    this.steps = { ...DEFAULT_SIMULATED_STEPS, ...options.steps };
    const { assignedAfterMinutes: a, pickedUpAfterMinutes: p, deliveredAfterMinutes: d } = this.steps;
    if (!(a >= 0 && p >= a && d >= p)) throw new Error('simulated courier steps must be increasing: assigned <= picked up <= delivered');
  }

  async quote(request: CourierQuoteRequest): Promise<CourierQuote | null> {
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

  async dispatch(request: CourierDispatchRequest): Promise<CourierDispatch> {
    // Derived from the order id, so dispatching the same order twice yields the same delivery.
    const deliveryId = `sim-${request.order_id}`;
    return { delivery_id: deliveryId, tracking_url: `${this.trackingBaseUrl}/${deliveryId}` };
  }

  async cancel(request: CourierCancelRequest): Promise<CourierCancellation> {
    return { delivery_id: request.delivery_id, cancelled: true };
  }

  async track(request: CourierTrackRequest): Promise<CourierTracking> {
    const dispatched = DateTime.fromMillis(request.dispatched_at);
    const at = (minutes: number) => dispatched.plus({ minutes }).toMillis();
    const assigned = at(this.steps.assignedAfterMinutes);
    const pickedUp = at(this.steps.pickedUpAfterMinutes);
    const delivered = at(this.steps.deliveredAfterMinutes);
    if (request.at < assigned) return { status: 'pendiente', next_update_at: assigned };
    if (request.at < pickedUp) return { status: 'asignado', next_update_at: pickedUp };
    if (request.at < delivered) return { status: 'en_camino', next_update_at: delivered };
    return { status: 'entregado', next_update_at: null };
  }
}
