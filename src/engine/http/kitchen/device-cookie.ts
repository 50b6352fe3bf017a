// The paired screen's device token travels only in an HttpOnly, SameSite=Strict cookie scoped to
// /kitchen: scripts on the page never see it, and no other site can make the browser send it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, KITCHEN_PATH } from '../../../shared/screen-contract/devices.ts';

/** Browsers keep a cookie at most 400 days; a paired screen stays paired until revoked. */
const MAX_AGE_SECONDS = 400 * 24 * 3600;

export function deviceTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === DEVICE_COOKIE) return value.join('=') || null;
  }
  return null;
}

export function setDeviceCookie(reply: FastifyReply, token: string): void {
  reply.header('Set-Cookie', `${DEVICE_COOKIE}=${token}; Path=${KITCHEN_PATH}; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict`);
}
