import { createApiKey, listApiKeys, revokeApiKey } from '../engine/services/keys/api-keys.ts';
import { setKeyChannelKind } from '../engine/services/kitchen/busy-mode.ts';
import { parseCommand, runOnEngine, usageExit, type Usage } from './admin-command.ts';

const USAGE = `usage:
  npm run keys -- create --restaurant ID --world live|test [--write] [--label NAME] [--channel store-front|pos] [--hub] [--db PATH]
  npm run keys -- list --restaurant ID [--db PATH]
  npm run keys -- revoke --restaurant ID --key KEY_ID [--db PATH]
The key is printed once, on creation; only its hash is stored. --channel store-front: its orders are
refused while the location is busy (busy mode); pos: never refused (the default, too). --hub: the
key of a restaurant's replica (COMANDA_UPSTREAM_KEY), with the hubs' own rate budget, sized for the
backlog a hub pushes after an outage (docs/platform-failover.md). --mode is the old spelling of
--world, still accepted.`;

const usage: Usage = usageExit(USAGE);

async function main(): Promise<void> {
  const { command, values } = parseCommand(
    {
      restaurant: { type: 'string' },
      world: { type: 'string' },
      mode: { type: 'string' },
      write: { type: 'boolean', default: false },
      hub: { type: 'boolean', default: false },
      label: { type: 'string' },
      channel: { type: 'string' },
      key: { type: 'string' },
      db: { type: 'string' },
    },
    ['create', 'list', 'revoke'],
    usage,
  );
  const restaurant = values.restaurant ?? usage('--restaurant ID is required');
  await runOnEngine(values.db, async (engine) => {
    if (command === 'create') {
      const world = values.world ?? values.mode;
      if (world !== 'live' && world !== 'test') usage('--world must be live or test');
      if (values.channel !== undefined && values.channel !== 'store-front' && values.channel !== 'pos') usage('--channel must be store-front or pos');
      // The key and its channel kind in one transaction: never a store front's key left unmarked.
      const { key, record } = await engine.transaction(async (tx) => {
        const created = await createApiKey(
          engine,
          { restaurantId: restaurant, world, write: values.write, label: values.label ?? null, kind: values.hub ? 'hub' : 'client' },
          tx,
        );
        if (values.channel) await setKeyChannelKind(engine, created.record.id, values.channel === 'store-front' ? 'store_front' : 'pos', tx);
        return created;
      });
      console.log(key);
      console.error(`created key ${record.id} (${record.world}, ${record.write ? 'read/write' : 'read only'}${record.kind === 'hub' ? ', a hub\'s' : ''}${record.label ? `, "${record.label}"` : ''}); it is shown only this once`);
    } else if (command === 'list') {
      for (const k of await listApiKeys(engine, restaurant)) {
        console.log([k.id, k.world, k.write ? 'write' : 'read', k.kind, `…${k.last4}`, k.label ?? '-', k.created_at, k.last_used_at ?? 'never used', k.revoked_at ? `revoked ${k.revoked_at}` : 'active'].join('\t'));
      }
    } else {
      if (!values.key) usage('--key KEY_ID is required');
      const revoked = await revokeApiKey(engine, restaurant, values.key);
      console.log(`revoked ${revoked.id} at ${revoked.revoked_at}`);
    }
  });
}

await main();
