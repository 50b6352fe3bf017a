// Kitchen screens from the command line, for a headless server in the back office and for tests:
// a pairing URL for one more tablet, the screens paired, and revoking one. Output is JSON on stdout.
import { createPairingCode, listKitchenDevices, pairingLockout, revokeKitchenDevice } from '../engine/services/kitchen/kitchen-devices.ts';
import { defaultDatabasePath } from '../engine/data-dir.ts';
import { servingHolderOf } from '../engine/serving-lock.ts';
import { parseCommand, runOnEngine, usageExit, type Usage } from './admin-command.ts';

const USAGE = `usage:
  npm run devices -- pair --restaurant ID [--base-url ORIGIN] [--name NAME] [--role kitchen|pickup] [--db PATH]
  npm run devices -- list --restaurant ID [--db PATH]     (the screens paired and not revoked)
  npm run devices -- revoke --restaurant ID --device ID [--db PATH]
pair prints {"pairing_url", "code", "expires_at"}: open the URL in the tablet's browser (it carries a long
secret), or type the six digits on its pairing page (single use, 10 minutes; 20 wrong codes typed in
10 minutes void the live codes: list says so on stderr).
--role: kitchen (the board, default) or pickup (the customers' "Listo para retirar" screen: numbers only).
ORIGIN is where tablets reach the engine, e.g. http://192.168.1.20:4750 (the engine serves /kitchen/ there).
Without --base-url, pair uses the address of the engine serving that database (its serving record
names its port) and says so on stderr; a tablet on the LAN needs this machine's LAN address instead.`;

const usage: Usage = usageExit(USAGE);

/** The origin of the engine serving `database` now, said on stderr; a usage mistake when none does. */
function servingOrigin(database: string | undefined): string {
  const path = database ?? defaultDatabasePath();
  const holder = servingHolderOf(path);
  if (!holder?.base_url) {
    usage(`--base-url ORIGIN is required: no engine serves ${path} now (start one with npm run serve, or say where tablets reach it, e.g. http://192.168.1.20:4750)`);
  }
  const url = new URL(holder.base_url);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  console.error(
    `--base-url ${url.origin}: where the engine serving ${holder.file ?? path} answers (process ${holder.pid}, ${holder.program}).` +
      (loopback ? ` A tablet on the LAN cannot reach ${url.hostname}: give --base-url with this machine's LAN address and port ${url.port}.` : ''),
  );
  const origin = url.origin;
  return origin;
}

async function main(): Promise<void> {
  const { command, values } = parseCommand(
    {
      restaurant: { type: 'string' },
      'base-url': { type: 'string' },
      name: { type: 'string' },
      device: { type: 'string' },
      role: { type: 'string' },
      db: { type: 'string' },
    },
    ['pair', 'list', 'revoke'],
    usage,
  );
  const restaurant = values.restaurant ?? usage('--restaurant ID is required');
  const baseUrl = command === 'pair' ? (values['base-url'] ?? servingOrigin(values.db)) : undefined;
  if (command === 'revoke' && !values.device) usage('--device ID is required');
  await runOnEngine(values.db, async (engine) => {
    if (command === 'pair') {
      const role = values.role ?? 'kitchen';
      const offer = await createPairingCode(engine, { restaurantId: restaurant, name: values.name ?? null, origin: baseUrl!, role });
      console.log(JSON.stringify({ pairing_url: offer.pairing_url, code: offer.code, expires_at: offer.expires_at, role }));
    } else if (command === 'list') {
      const devices = (await listKitchenDevices(engine, restaurant))
        .filter((d) => d.revoked_at === null)
        .map(({ id, name, role, paired_at, last_seen_at }) => ({ id, name, role, paired_at, last_seen_at }));
      console.log(JSON.stringify(devices));
      const lockout = await pairingLockout(engine, restaurant);
      if (lockout) {
        console.error(
          `pairing codes voided at ${lockout.voided_at}: ${lockout.failed_attempts} wrong codes typed within 10 minutes (pairing URLs still work; issue a new code if needed)`,
        );
      }
    } else {
      const revoked = await revokeKitchenDevice(engine, restaurant, values.device!);
      console.log(JSON.stringify({ id: revoked.id, name: revoked.name, revoked_at: revoked.revoked_at }));
    }
  });
}

await main();
