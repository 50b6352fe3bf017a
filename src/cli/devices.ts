// Kitchen screens from the command line, for a headless server in the back office and for tests:
// a pairing URL for one more tablet, the screens paired, and revoking one. Output is JSON on stdout.
import { createPairingCode, listKitchenDevices, pairingLockout, revokeKitchenDevice } from '../engine/services/kitchen-devices.ts';
import { parseCommand, runOnEngine, usageExit } from './admin-command.ts';

const USAGE = `usage:
  npm run devices -- pair --restaurant ID --base-url ORIGIN [--name NAME] [--role kitchen|pickup] [--db PATH]
  npm run devices -- list --restaurant ID [--db PATH]     (the screens paired and not revoked)
  npm run devices -- revoke --restaurant ID --device ID [--db PATH]
pair prints {"pairing_url", "code", "expires_at"}: open the URL in the tablet's browser (it carries a long
secret), or type the six digits on its pairing page (single use, 10 minutes; 20 wrong codes typed in
10 minutes void the live codes: list says so on stderr).
--role: kitchen (the board, default) or pickup (the customers' "Listo para retirar" screen: numbers only).
ORIGIN is where tablets reach the engine, e.g. http://192.168.1.20:4750 (the engine serves /kitchen/ there).`;

const usage: (message: string) => never = usageExit(USAGE);

function main(): void {
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
  if (command === 'pair' && !values['base-url']) usage('--base-url ORIGIN is required (where tablets reach the engine, e.g. http://192.168.1.20:4750)');
  if (command === 'revoke' && !values.device) usage('--device ID is required');
  runOnEngine(values.db, (engine) => {
    if (command === 'pair') {
      const role = values.role ?? 'kitchen';
      const offer = createPairingCode(engine, { restaurantId: restaurant, name: values.name ?? null, origin: values['base-url']!, role });
      console.log(JSON.stringify({ pairing_url: offer.pairing_url, code: offer.code, expires_at: offer.expires_at, role }));
    } else if (command === 'list') {
      const devices = listKitchenDevices(engine, restaurant)
        .filter((d) => d.revoked_at === null)
        .map(({ id, name, role, paired_at, last_seen_at }) => ({ id, name, role, paired_at, last_seen_at }));
      console.log(JSON.stringify(devices));
      const lockout = pairingLockout(engine, restaurant);
      if (lockout) {
        console.error(
          `pairing codes voided at ${lockout.voided_at}: ${lockout.failed_attempts} wrong codes typed within 10 minutes (pairing URLs still work; issue a new code if needed)`,
        );
      }
    } else {
      const revoked = revokeKitchenDevice(engine, restaurant, values.device!);
      console.log(JSON.stringify({ id: revoked.id, name: revoked.name, revoked_at: revoked.revoked_at }));
    }
  });
}

main();
