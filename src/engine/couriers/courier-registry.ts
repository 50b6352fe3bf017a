import type { CourierProvider } from './courier-provider.ts';
import { SimulatedCourier } from './simulated-courier.ts';

/** Courier adapters by the provider name locations use in their courier preference. */
export type CourierRegistry = ReadonlyMap<string, CourierProvider>;

export function courierRegistry(...providers: CourierProvider[]): CourierRegistry {
  return new Map(providers.map((provider) => [provider.name, provider]));
}

/** The couriers every engine has: the simulated one, under "simulado". */
export function defaultCouriers(): CourierRegistry {
  return courierRegistry(new SimulatedCourier());
}
