import type { OwnDeliverySettings } from './delivery-settings.ts';
import { distanceKm, isInsidePolygon, type LatLng } from './geo.ts';

/** Why own delivery cannot take an address. */
export type OwnDeliveryRefusal =
  /** Own delivery is configured but switched off. */
  | 'disabled'
  /** The location has no coordinates, so neither distance nor fee can be known. */
  | 'location_without_coordinates'
  /** Outside the radius or the polygon. */
  | 'outside_coverage'
  /** Inside a polygon, but farther than the last fee band reaches: no fee to charge. */
  | 'beyond_fee_bands';

export type OwnDeliveryQuote =
  | { covered: false; reason: OwnDeliveryRefusal }
  | { covered: true; fee_original: number; duration_minutes: number; distance_km: number };

/** Quotes the location's own riders for a dropoff with known coordinates. */
export function ownDeliveryQuote(own: OwnDeliverySettings, location: LatLng | null, dropoff: LatLng): OwnDeliveryQuote {
  if (!own.enabled) return { covered: false, reason: 'disabled' };
  if (!location) return { covered: false, reason: 'location_without_coordinates' };
  const distance = distanceKm(location, dropoff);
  const covered = 'radius_km' in own.coverage ? distance <= own.coverage.radius_km : isInsidePolygon(dropoff, own.coverage.polygon);
  if (!covered) return { covered: false, reason: 'outside_coverage' };
  // Bands are ascending, so the first that reaches the distance is the cheapest that applies.
  const band = own.fee_bands.find((b) => b.up_to_km >= distance);
  if (!band) return { covered: false, reason: 'beyond_fee_bands' };
  return { covered: true, fee_original: band.fee, duration_minutes: own.duration_minutes, distance_km: distance };
}

/** A restaurant's shipping subsidy rule, as imported into `restaurants.shipping_subsidies`. */
export type ShippingSubsidyRule =
  | { type: 'free_over_subtotal'; min_subtotal: number }
  | { type: 'percentage'; percent: number; max: number; min_subtotal?: number };

export interface SubsidisedFee {
  /** What the customer pays. */
  fee: number;
  /** The delivery cost before subsidies. */
  fee_original: number;
  /** The part the restaurant pays. */
  fee_subsidy: number;
}

function subsidyOf(rule: ShippingSubsidyRule, subtotal: number, feeOriginal: number): number {
  switch (rule.type) {
    case 'free_over_subtotal':
      return subtotal >= rule.min_subtotal ? feeOriginal : 0;
    case 'percentage':
      if (subtotal < (rule.min_subtotal ?? 0)) return 0;
      return Math.min(Math.floor((feeOriginal * rule.percent) / 100), rule.max);
    default:
      // Rules come from stored JSON; one of a kind this engine does not know subsidises nothing.
      return 0;
  }
}

/** Applies the rule that subsidises most; the customer never pays less than zero. */
export function applySubsidies(rules: readonly ShippingSubsidyRule[], subtotal: number, feeOriginal: number): SubsidisedFee {
  const best = Math.max(0, ...rules.map((rule) => subsidyOf(rule, subtotal, feeOriginal)));
  const subsidy = Math.min(best, feeOriginal);
  return { fee: feeOriginal - subsidy, fee_original: feeOriginal, fee_subsidy: subsidy };
}
