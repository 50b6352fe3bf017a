import type { CourierProvider } from './courier-provider.ts';
import { SIMULATED_COURIER_NAME, SimulatedCourier } from './simulated-courier.ts';

/** Courier adapters by the provider name locations use in their courier preference. */
export type CourierRegistry = ReadonlyMap<string, CourierProvider>;

export function courierRegistry(...providers: CourierProvider[]): CourierRegistry {
  return new Map(providers.map((provider) => [provider.name, provider]));
}

/** The couriers every engine has: the simulated one, under "simulado". */
export function defaultCouriers(): CourierRegistry {
  return courierRegistry(new SimulatedCourier());
}

const builtInSimulatedCourier = new SimulatedCourier();

/**
 * The adapter that carries an order. Sandbox orders never summon a real courier: they always go
 * to the simulated one (the registry's "simulado" when it has one, else the built-in).
 */
export function courierFor(registry: CourierRegistry, provider: string, test: boolean): CourierProvider | undefined {
  if (test) return registry.get(SIMULATED_COURIER_NAME) ?? builtInSimulatedCourier;
  return registry.get(provider);
}
