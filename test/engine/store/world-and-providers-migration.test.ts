// Migration 0022 (issue 31): an API key's `mode` column becomes `world`, its rows and its CHECK kept;
// payment_credentials loses its list of provider names (a second provider is the registry's
// business alone), every row of a version-20 file coming through whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../../src/engine/store/migrations/index.ts';
import { migrate } from '../../../src/engine/store/migrate.ts';

test('a version-20 file: keys keep their world under its new name, credentials kept, any provider name accepted', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-0022-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = new Database(join(dir, 'old.db'));
  t.after(() => db.close());
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS.slice(0, 20));
  db.exec(`INSERT INTO restaurants (id, name, register_mode, created_at) VALUES ('r1', 'R', 'manual', 0)`);
  db.exec(`INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, mode, can_write, label, last4, created_at)
    VALUES ('k1', 'r1', 'lookup000001', x'00', x'01', 'live', 1, 'tienda', 'WXYZ', 5), ('k2', 'r1', 'lookup000002', x'02', x'03', 'test', 0, NULL, 'ABCD', 6)`);
  db.exec(`INSERT INTO payment_credentials (restaurant_id, provider, access_token, webhook_secret, api_base, created_at, updated_at)
    VALUES ('r1', 'mercadopago', 'APP_USR-token', 'whsec', 'https://api.mercadopago.com', 7, 8)`);
  assert.throws(() => db.exec(`INSERT INTO payment_credentials VALUES ('r1', 'otro', 't', 's', 'https://x', 1, 1)`), /CHECK constraint/, 'before: one name only');
  const keysBefore = db.prepare('SELECT * FROM api_keys ORDER BY id').all() as Record<string, unknown>[];
  const credentialsBefore = db.prepare('SELECT * FROM payment_credentials').all();

  migrate(db, MIGRATIONS);
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  // Later migrations add columns (0025: the key's kind); each key from before is an ordinary client key.
  const keysAfter = (db.prepare('SELECT * FROM api_keys ORDER BY id').all() as Record<string, unknown>[]).map(({ kind, ...rest }) => {
    assert.equal(kind, 'client');
    return rest;
  });
  assert.deepEqual(keysAfter, keysBefore.map(({ mode, ...rest }) => ({ ...rest, world: mode })));
  assert.throws(() => db.exec(`UPDATE api_keys SET world = 'staging' WHERE id = 'k1'`), /CHECK constraint/, 'the world is still live or test');
  assert.deepEqual(db.prepare('SELECT * FROM payment_credentials').all(), credentialsBefore);
  db.exec(`INSERT INTO payment_credentials VALUES ('r1', 'otro', 't', 's', 'https://x', 1, 1)`);
  assert.throws(() => db.exec(`INSERT INTO payment_credentials VALUES ('r1', '', 't', 's', 'https://x', 1, 1)`), /CHECK constraint/, 'a name, never empty');
  assert.throws(() => db.exec(`INSERT INTO payment_credentials VALUES ('r1', 'otro', 't', 's', 'https://x', 1, 1)`), /UNIQUE constraint/, 'one account per provider');
});

