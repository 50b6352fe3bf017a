import { DateTime } from 'luxon';
import type { Static } from 'typebox';
import type { Quote as QuoteSchema, QuoteInput } from '../../../shared/schemas/delivery.ts';
import type { CourierRegistry } from '../../couriers/courier-registry.ts';
import { applySubsidies, ownDeliveryQuote, type OwnDeliveryRefusal, type ShippingSubsidyRule } from '../../domain/delivery-quote.ts';
import { invalidRequest } from '../../domain/errors.ts';
import type { LatLng } from '../../domain/geo.ts';
import { formatInstant } from '../../domain/time.ts';
import { callWithTimeout } from '../../adapters/call-with-timeout.ts';
import type { CourierQuote } from '../../couriers/courier-provider.ts';
import type { Engine } from '../../engine.ts';
import { DEFAULT_COURIER_TIMEOUT_MS } from './courier-dispatch.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import type { Actor } from '../../domain/actor.ts';
import { parseDeliverySettings, type DeliverySettings } from '../../domain/delivery-settings.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';

export type Quote = Static<typeof QuoteSchema>;

const QUOTE_VALIDITY_MINUTES = 10;
const OWN_DELIVERY_PROVIDER = 'propio';

/** Why own delivery did not quote, when the location has it enabled. */
type OwnFailure = Exclude<OwnDeliveryRefusal, 'disabled'> | 'dropoff_without_coordinates';
/** Why no courier quoted. */
type CourierFailure = 'none_configured' | 'none_available' | 'none_cover';

/** A quote holds for ten minutes (api-v1-decisions.md). */
export function quoteExpiry(now: number, timeZone: string): string {
  return formatInstant(DateTime.fromMillis(now).plus({ minutes: QUOTE_VALIDITY_MINUTES }).toMillis(), timeZone);
}

/** No delivery to that address: the store front offers pickup instead. */
export function unavailableQuote(message: string, expires: string): Quote {
  return { available: false, provider: null, fee: 0, fee_original: 0, fee_subsidy: 0, currency: 'CLP', duration_minutes: 0, expires, message };
}

/**
 * Quotes delivery from a location to an address: own riders when enabled and covering, else the
 * location's couriers in preference order, with the restaurant's shipping subsidies applied.
 * Reads only: a quote is not stored, and no transaction is open while a courier is asked (each
 * with a timeout; one that fails or is too slow is passed over for the next preference).
 */
export async function quoteDelivery(
  engine: Engine,
  actor: Actor,
  input: QuoteInput,
  couriers: CourierRegistry,
  timeoutMs = DEFAULT_COURIER_TIMEOUT_MS,
): Promise<Quote> {
  // Its reads in one read transaction of its own, over before any courier is asked.
  const { restaurant, location } = await engine.read(async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    return { restaurant, location: await tx.stores.locations.get(restaurant.id, input.location_id.toLowerCase()) };
  });
  if (!location) throw invalidRequest(`location_id: unknown location ${input.location_id}`);
  const now = engine.clock.now();
  const expires = quoteExpiry(now, restaurant.time_zone);
  const unavailable = (message: string): Quote => unavailableQuote(message, expires);
  const available = (provider: string, feeOriginal: number, durationMinutes: number, message: string): Quote => ({
    available: true,
    provider,
    ...applySubsidies(subsidyRulesOf(restaurant), input.subtotal, feeOriginal),
    currency: 'CLP',
    duration_minutes: durationMinutes,
    expires,
    message,
  });

  if (location.is_active !== 1) {
    return unavailable(`La sucursal ${location.name} está desactivada y no recibe pedidos.`);
  }
  const settings = parseDeliverySettings(location.delivery);
  const dropoff = coordinatesOf(input.dropoff.latitude, input.dropoff.longitude);

  let ownFailure: OwnFailure | null = null;
  if (settings.own?.enabled) {
    if (!dropoff) {
      ownFailure = 'dropoff_without_coordinates';
    } else {
      const own = ownDeliveryQuote(settings.own, coordinatesOf(location.latitude, location.longitude), dropoff);
      if (own.covered) return available(OWN_DELIVERY_PROVIDER, own.fee_original, own.duration_minutes, 'Despacho propio');
      // 'disabled' cannot happen here: enabled was checked above.
      ownFailure = own.reason === 'disabled' ? null : own.reason;
    }
  }

  const courierResult = await firstCourierQuote(settings, couriers, location, input, now, timeoutMs);
  if ('quote' in courierResult) {
    const { name, label, quote } = courierResult;
    return available(name, quote.fee, quote.duration_minutes, label);
  }
  return unavailable(unavailableMessage(settings.own?.enabled === true, ownFailure, courierResult.failure, dropoff !== null));
}

function coordinatesOf(latitude: number | null | undefined, longitude: number | null | undefined): LatLng | null {
  return latitude === null || latitude === undefined || longitude === null || longitude === undefined ? null : [latitude, longitude];
}

function subsidyRulesOf(restaurant: RestaurantRow): ShippingSubsidyRule[] {
  const rules = JSON.parse(restaurant.shipping_subsidies) as unknown;
  return Array.isArray(rules) ? (rules as ShippingSubsidyRule[]) : [];
}

type CourierResult =
  | { name: string; label: string; quote: { fee: number; duration_minutes: number } }
  | { failure: CourierFailure };

async function firstCourierQuote(
  settings: DeliverySettings,
  couriers: CourierRegistry,
  location: LocationRow,
  input: QuoteInput,
  now: number,
  timeoutMs: number,
): Promise<CourierResult> {
  const preferred = settings.couriers ?? [];
  if (preferred.length === 0) return { failure: 'none_configured' };
  const request = {
    pickup: { lat: location.latitude, lng: location.longitude, address: location.address },
    dropoff: { lat: input.dropoff.latitude ?? null, lng: input.dropoff.longitude ?? null, address: input.dropoff.address ?? null },
    at: now,
  };
  let anyAvailable = false;
  for (const name of preferred) {
    // A name this engine has no adapter for is skipped, so the next preference still gets its turn.
    const courier = couriers.get(name);
    if (!courier) continue;
    anyAvailable = true;
    let quote: CourierQuote | null;
    try {
      quote = await callWithTimeout(`courier "${name}" (quote)`, timeoutMs, (signal) => courier.quote({ ...request, signal }));
    } catch {
      // Unreachable or too slow: as if it did not cover the address; the next preference may.
      quote = null;
    }
    if (quote) return { name, label: courier.label, quote };
  }
  return { failure: anyAvailable ? 'none_cover' : 'none_available' };
}

const OWN_FAILURE_TEXT: Record<OwnFailure, string> = {
  dropoff_without_coordinates:
    'la dirección no tiene coordenadas (latitude y longitude) y el despacho propio las necesita para validar la cobertura',
  location_without_coordinates: 'la sucursal no tiene coordenadas y el despacho propio las necesita para validar la cobertura',
  outside_coverage: 'la dirección está fuera de la zona de cobertura del despacho propio',
  beyond_fee_bands: 'la dirección está fuera de la zona de cobertura del despacho propio',
};

/** One sentence naming every reason, so the customer learns why and what is left (pickup). */
function unavailableMessage(
  ownEnabled: boolean,
  ownFailure: OwnFailure | null,
  courierFailure: CourierFailure,
  dropoffHasCoordinates: boolean,
): string {
  const reasons: string[] = [];
  if (ownFailure) reasons.push(OWN_FAILURE_TEXT[ownFailure]);
  if (courierFailure === 'none_configured') {
    reasons.push(ownEnabled ? 'no hay couriers configurados' : 'la sucursal no tiene despacho propio ni couriers configurados');
  } else if (courierFailure === 'none_available') {
    reasons.push('ningún courier configurado está disponible');
  } else {
    reasons.push(dropoffHasCoordinates ? 'ningún courier cubre la dirección' : 'ningún courier cubre la dirección sin coordenadas');
  }
  const sentence = reasons.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}. Solo está disponible el retiro en la sucursal.`;
}
