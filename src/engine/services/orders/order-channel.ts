import type { Engine, WriteTransaction } from '../../engine.ts';
import type { Actor } from '../../domain/actor.ts';

/**
 * The name a cook reads for where an order came from: the POS that manages it, else the label of
 * the API key that created it (the integration's name), else the key's last four characters; a
 * door without a key (the kitchen, the jobs) is named by its fixed key name.
 */
export async function orderChannel(engine: Engine, tx: WriteTransaction, actor: Actor, managedBy: string | undefined): Promise<string> {
  if (managedBy !== undefined) return managedBy;
  const key = await tx.stores.apiKeys.find(actor.restaurantId, actor.keyId);
  if (!key) return actor.keyId;
  return key.label?.trim() || `API ····${key.last4}`;
}
