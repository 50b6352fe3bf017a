import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { checkMercadoPagoSignature, mercadoPagoManifest } from '../../../src/engine/payments/mercadopago/mercadopago-signature.ts';

const SECRET = 'whsec-signature-test-secret';
const NOW = Date.parse('2026-11-21T23:00:00Z');

/** Signed as Mercado Pago's reference says, written out here apart from the code under test. */
const sign = (manifest: string) => createHmac('sha256', SECRET).update(manifest).digest('hex');

test('the manifest: id (alphanumeric lowercased), request-id and ts, each ended by a semicolon; absent parts left out', () => {
  assert.equal(mercadoPagoManifest('123456', 'req-1', '1700000000'), 'id:123456;request-id:req-1;ts:1700000000;');
  assert.equal(mercadoPagoManifest('ABC123', 'req-1', '1'), 'id:abc123;request-id:req-1;ts:1;');
  assert.equal(mercadoPagoManifest(null, null, '1'), 'ts:1;');
});

test('a signature: accepted when it matches and is fresh (seconds or milliseconds), refused otherwise with the reason', () => {
  const ts = String(Math.floor(NOW / 1000));
  const header = `ts=${ts},v1=${sign(`id:98765;request-id:abc-def;ts:${ts};`)}`;
  assert.deepEqual(checkMercadoPagoSignature({ secret: SECRET, header, requestId: 'abc-def', dataId: '98765', now: NOW }), { ok: true, at: Number(ts) * 1000 });
  const tsMs = String(NOW - 60_000);
  assert.equal(
    checkMercadoPagoSignature({ secret: SECRET, header: `ts=${tsMs},v1=${sign(`id:98765;request-id:abc-def;ts:${tsMs};`)}`, requestId: 'abc-def', dataId: '98765', now: NOW }).ok,
    true,
  );
  const refused = (input: Partial<Parameters<typeof checkMercadoPagoSignature>[0]>) =>
    checkMercadoPagoSignature({ secret: SECRET, header, requestId: 'abc-def', dataId: '98765', now: NOW, ...input });
  assert.deepEqual(refused({ dataId: '98766' }), { ok: false, reason: 'x-signature does not match' });
  assert.deepEqual(refused({ requestId: 'other' }), { ok: false, reason: 'x-signature does not match' });
  assert.deepEqual(refused({ secret: 'another-secret' }), { ok: false, reason: 'x-signature does not match' });
  assert.deepEqual(refused({ now: NOW + 6 * 60_000 }), { ok: false, reason: 'x-signature is too old' });
  assert.deepEqual(refused({ header: undefined }), { ok: false, reason: 'x-signature is missing' });
  assert.deepEqual(refused({ header: `ts=${ts}` }), { ok: false, reason: 'x-signature is malformed' });
  assert.deepEqual(refused({ header: `ts=${ts},v1=zz` }), { ok: false, reason: 'x-signature is malformed' });
});
