// Kitchen screens from the command line, for a headless server in the back office and for tests:
// a pairing URL for one more tablet, the screens paired, and revoking one. Output is JSON on stdout.
import { parseArgs } from 'node:util';
import { ApiError } from '../domain/errors.ts';
import { Engine } from '../engine.ts';
import { StorageRefusal } from '../store/database-checks.ts';
import { createPairingCode, listKitchenDevices, revokeKitchenDevice } from '../services/kitchen-devices.ts';
import { defaultDatabasePath } from './data-dir.ts';

const USAGE = `usage:
  npm run devices -- pair --restaurant ID --base-url ORIGIN [--name NAME] [--db PATH]
  npm run devices -- list --restaurant ID [--db PATH]     (the screens paired and not revoked)
  npm run devices -- revoke --restaurant ID --device ID [--db PATH]
pair prints {"pairing_url", "expires_at"}: open the URL in the tablet's browser (single use, 10 minutes).
ORIGIN is where tablets reach the engine, e.g. http://192.168.1.20:4750 (the engine serves /kitchen/ there).`;

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        restaurant: { type: 'string' },
        'base-url': { type: 'string' },
        name: { type: 'string' },
        device: { type: 'string' },
        db: { type: 'string' },
      },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (!command || !['pair', 'list', 'revoke'].includes(command)) usage('a command is needed: pair, list or revoke');
  if (!values.restaurant) usage('--restaurant ID is required');
  if (command === 'pair' && !values['base-url']) usage('--base-url ORIGIN is required (where tablets reach the engine, e.g. http://192.168.1.20:4750)');
  if (command === 'revoke' && !values.device) usage('--device ID is required');
  let engine: Engine;
  try {
    engine = new Engine({ database: values.db ?? defaultDatabasePath() });
  } catch (error) {
    if (!(error instanceof StorageRefusal)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  try {
    if (command === 'pair') {
      const offer = createPairingCode(engine, { restaurantId: values.restaurant, name: values.name ?? null, origin: values['base-url']! });
      console.log(JSON.stringify({ pairing_url: offer.pairing_url, expires_at: offer.expires_at }));
    } else if (command === 'list') {
      const devices = listKitchenDevices(engine, values.restaurant)
        .filter((d) => d.revoked_at === null)
        .map(({ id, name, paired_at, last_seen_at }) => ({ id, name, paired_at, last_seen_at }));
      console.log(JSON.stringify(devices));
    } else {
      const revoked = revokeKitchenDevice(engine, values.restaurant, values.device!);
      console.log(JSON.stringify({ id: revoked.id, name: revoked.name, revoked_at: revoked.revoked_at }));
    }
  } catch (error) {
    if (error instanceof ApiError) {
      console.error(error.message);
      process.exitCode = 1;
    } else throw error;
  } finally {
    engine.close();
  }
}

main();
