import type { World } from '../../shared/world.ts';

/** Who asks: the restaurant a key belongs to, the world it sees and what it may do. */
export interface Actor {
  restaurantId: string;
  world: World;
  canWrite: boolean;
  /** The API key's id, or a fixed name for the kitchen screen and jobs. */
  keyId: string;
  /** Issue 35: true for a hub's key (a replica pushing upstream), which spends the hubs' rate budget. */
  hub?: boolean;
}

export const isTestWorld = (actor: Actor): boolean => actor.world === 'test';
