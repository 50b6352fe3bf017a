/** One end of a delivery. Coordinates may be missing: some couriers geocode the address instead. */
export interface CourierPlace {
  lat: number | null;
  lng: number | null;
  address: string | null;
}

export interface CourierQuoteRequest {
  /** The location the courier picks up from. */
  pickup: CourierPlace;
  /** The customer's address. */
  dropoff: CourierPlace;
  /** When the quote is asked for, epoch milliseconds (the engine's clock, so tests can drive it). */
  at: number;
  /** Aborts when the engine stops waiting (its timeout): the adapter should drop the request. */
  signal?: AbortSignal;
}

export interface CourierQuote {
  /** What the courier charges, integer CLP, before the restaurant's shipping subsidies. */
  fee: number;
  /** Minutes from dispatch to delivery, as the courier estimates them. */
  duration_minutes: number;
}

export interface CourierDispatchRequest extends CourierQuoteRequest {
  /** The order being delivered; couriers use it to recognise a repeated dispatch of the same order. */
  order_id: string;
  /**
   * The same for every attempt at dispatching this order (`comanda-dispatch-<order id>`): send it
   * as the courier API's idempotency key, so a retry after a timeout never books a second rider.
   */
  idempotency_key: string;
}

export interface CourierDispatch {
  /** The courier's own id for the delivery; needed to cancel it and to match its status updates. */
  delivery_id: string;
  /** Where the customer can follow the delivery, or null when the courier offers no such page. */
  tracking_url: string | null;
}

export interface CourierCancelRequest {
  delivery_id: string;
  /** When the cancellation is asked for, epoch milliseconds. */
  at: number;
  signal?: AbortSignal;
}

export interface CourierCancellation {
  delivery_id: string;
  /** False when the courier refuses, e.g. because the parcel was already picked up. */
  cancelled: boolean;
}

/** A dispatched delivery's status as a courier reports it (api-v1-decisions.md, Delivery). */
export type CourierStatus = 'pendiente' | 'asignado' | 'en_camino' | 'entregado' | 'cancelado';

export interface CourierTrackRequest {
  delivery_id: string;
  order_id: string;
  /** When the engine's dispatch succeeded, epoch milliseconds (as the engine recorded it). */
  dispatched_at: number;
  /** When the status is asked for, epoch milliseconds. */
  at: number;
  signal?: AbortSignal;
}

export interface CourierTracking {
  /** `pendiente` (requested) → `asignado` (courier assigned) → `en_camino` (picked up) → `entregado`; or `cancelado`. */
  status: CourierStatus;
  /** A tracking page that appeared or changed since dispatch; omitted when unchanged. */
  tracking_url?: string | null;
  /** When the courier expects its next change, if it knows; the engine looks again then at the latest. */
  next_update_at?: number | null;
}

/**
 * A third-party courier behind one interface. Every method is asynchronous, as a courier's API
 * is: the engine calls them outside any database transaction, with a timeout (the jobs runner for
 * dispatch, cancel and track, performing intents written by the order's transitions;
 * POST /delivery/quote for quotes). A method that throws or rejects has failed.
 */
export interface CourierProvider {
  /** The provider's name as locations list it in their courier preference, e.g. "simulado". */
  readonly name: string;
  /** Customer-facing Spanish name, used as the message of an available quote, e.g. "Courier simulado". */
  readonly label: string;
  /** Prices a delivery; null when the courier does not cover it (too far, no coordinates...). */
  quote(request: CourierQuoteRequest): Promise<CourierQuote | null>;
  /**
   * Asks the courier to carry an order. Dispatching the same order again (same idempotency key)
   * returns the same delivery. Failing means the dispatch failed: the order stays `listo` and the
   * engine retries later.
   */
  dispatch(request: CourierDispatchRequest): Promise<CourierDispatch>;
  /** Asks the courier to call off a delivery it was dispatched. */
  cancel(request: CourierCancelRequest): Promise<CourierCancellation>;
  /** The delivery's current status; the jobs runner asks until it is `entregado` or `cancelado`. */
  track(request: CourierTrackRequest): Promise<CourierTracking>;
}
