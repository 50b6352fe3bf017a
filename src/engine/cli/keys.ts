import { parseArgs } from 'node:util';
import { ApiError } from '../domain/errors.ts';
import { Engine } from '../engine.ts';
import { StorageRefusal } from '../store/database-checks.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.ts';
import { defaultDatabasePath } from './data-dir.ts';

const USAGE = `usage:
  npm run keys -- create --restaurant ID --mode live|test [--write] [--label NAME] [--db PATH]
  npm run keys -- list --restaurant ID [--db PATH]
  npm run keys -- revoke --restaurant ID --key KEY_ID [--db PATH]
The key is printed once, on creation; only its hash is stored.`;

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
        mode: { type: 'string' },
        write: { type: 'boolean', default: false },
        label: { type: 'string' },
        key: { type: 'string' },
        db: { type: 'string' },
      },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (!command || !['create', 'list', 'revoke'].includes(command)) usage('a command is needed: create, list or revoke');
  if (!values.restaurant) usage('--restaurant ID is required');
  let engine: Engine;
  try {
    engine = new Engine({ database: values.db ?? defaultDatabasePath() });
  } catch (error) {
    if (!(error instanceof StorageRefusal)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  try {
    if (command === 'create') {
      if (values.mode !== 'live' && values.mode !== 'test') usage('--mode must be live or test');
      const { key, record } = createApiKey(engine, {
        restaurantId: values.restaurant,
        mode: values.mode,
        write: values.write,
        label: values.label ?? null,
      });
      console.log(key);
      console.error(`created key ${record.id} (${record.mode}, ${record.write ? 'read/write' : 'read only'}${record.label ? `, "${record.label}"` : ''}); it is shown only this once`);
    } else if (command === 'list') {
      for (const k of listApiKeys(engine, values.restaurant)) {
        console.log([k.id, k.mode, k.write ? 'write' : 'read', `…${k.last4}`, k.label ?? '-', k.created_at, k.last_used_at ?? 'never used', k.revoked_at ? `revoked ${k.revoked_at}` : 'active'].join('\t'));
      }
    } else {
      if (!values.key) usage('--key KEY_ID is required');
      const revoked = revokeApiKey(engine, values.restaurant, values.key);
      console.log(`revoked ${revoked.id} at ${revoked.revoked_at}`);
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
