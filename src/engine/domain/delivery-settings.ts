/** A location's delivery configuration as imported from the restaurant file. */
export interface OwnDeliverySettings {
  enabled: boolean;
  coverage: { radius_km: number } | { polygon: [number, number][] };
  fee_bands: { up_to_km: number; fee: number }[];
  duration_minutes: number;
}

export interface DeliverySettings {
  own?: OwnDeliverySettings;
  couriers?: string[];
}

export function parseDeliverySettings(json: string): DeliverySettings {
  return JSON.parse(json) as DeliverySettings;
}

/** Who will carry a delivery order of this location: own riders first, else the preferred courier. */
export function deliveryProviderFor(settings: DeliverySettings): string | null {
  if (settings.own?.enabled) return 'propio';
  return settings.couriers?.[0] ?? null;
}
