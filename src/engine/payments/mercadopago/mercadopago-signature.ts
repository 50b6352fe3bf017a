import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Mercado Pago's webhook signature (developers' "Notifications" page, "Validate notification
 * origin"): the `x-signature` header is `ts=<timestamp>,v1=<hex>`, where v1 is HMAC-SHA256, keyed
 * with the application's webhook secret, of the manifest
 * `id:<data.id of the query>;request-id:<x-request-id>;ts:<ts>;` (a part whose value is absent is
 * left out; an alphanumeric data.id is lowercased).
 */
export function mercadoPagoManifest(dataId: string | null, requestId: string | null, ts: string): string {
  let manifest = '';
  if (dataId) manifest += `id:${/^[0-9a-z]+$/i.test(dataId) ? dataId.toLowerCase() : dataId};`;
  if (requestId) manifest += `request-id:${requestId};`;
  return `${manifest}ts:${ts};`;
}

function signMercadoPagoManifest(secret: string, manifest: string): string {
  return createHmac('sha256', secret).update(manifest).digest('hex');
}

export type SignatureCheck = { ok: true; at: number } | { ok: false; reason: string };

/** How old (or how far ahead of the engine's clock) a signed timestamp may be. */
const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Checks a notification's signature and its age against `now` (the engine's clock). Its `ts` is
 * read as milliseconds when it has 13 digits or more, else as seconds.
 */
export function checkMercadoPagoSignature(input: {
  secret: string;
  header: string | undefined;
  requestId: string | undefined;
  dataId: string | null;
  now: number;
}): SignatureCheck {
  if (!input.header) return { ok: false, reason: 'x-signature is missing' };
  const parts = new Map<string, string>();
  for (const part of input.header.split(',')) {
    const [key, ...rest] = part.split('=');
    if (key && rest.length > 0) parts.set(key.trim(), rest.join('=').trim());
  }
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return { ok: false, reason: 'x-signature is malformed' };
  const expected = Buffer.from(signMercadoPagoManifest(input.secret, mercadoPagoManifest(input.dataId, input.requestId ?? null, ts)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(v1.toLowerCase(), 'hex'))) return { ok: false, reason: 'x-signature does not match' };
  const at = ts.length >= 13 ? Number(ts) : Number(ts) * 1000;
  if (Math.abs(input.now - at) > SIGNATURE_TOLERANCE_MS) return { ok: false, reason: 'x-signature is too old' };
  return { ok: true, at };
}
