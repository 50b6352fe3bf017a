// The manager's screens over HTTP (`npm start` without Electron): a browser on the same machine
// gets the desktop channels once it holds an admin session. The session comes from a one-time link
// printed in the terminal (the model Jupyter uses): a long random secret, single use, short-lived,
// exchanged for an HttpOnly, SameSite=Strict cookie. Admin requests are answered only from a
// loopback address, for a loopback Host (no DNS rebinding) and from the app's own Origin, whatever
// the LAN setting. Secrets are kept as SHA-256 digests and compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KITCHEN_PATH } from '../../../shared/ipc/devices.ts';

/** The cookie holding the admin session (never readable by the page's scripts). */
export const ADMIN_COOKIE = 'comanda_admin';
/** Where the one-time link lands: /kitchen/admin?token=… */
export const ADMIN_LOGIN_PATH = `${KITCHEN_PATH}/admin`;
/** How long a printed link may wait to be opened. */
export const ADMIN_LINK_TTL_MS = 10 * 60_000;
/** Every one-time token starts so: a log redactor can recognise it anywhere. */
export const ADMIN_TOKEN_PREFIX = 'cmadm_';

/** 256 random bits, URL-safe. */
const secret = (): string => randomBytes(32).toString('base64url');
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export interface AdminSessions {
  /** A new one-time link on `origin` (e.g. http://127.0.0.1:4750): single use, valid ADMIN_LINK_TTL_MS. */
  issueLink(origin: string): string;
  /** Spends a one-time token: the new session's secret, or null (unknown, used or expired). */
  redeem(token: string): string | null;
  /** Whether `session` is a session this process handed out. */
  isSession(session: string): boolean;
}

export function createAdminSessions(now: () => number = Date.now): AdminSessions {
  const links: { hash: Buffer; expiresAt: number }[] = [];
  const sessions: Buffer[] = [];
  /** Compares against every entry, in constant time each: no early exit tells which one matched. */
  const findIndex = (hashes: Buffer[], presented: string): number => {
    const wanted = digest(presented);
    let found = -1;
    hashes.forEach((hash, index) => {
      if (timingSafeEqual(hash, wanted)) found = index;
    });
    return found;
  };
  return {
    issueLink(origin) {
      const token = `${ADMIN_TOKEN_PREFIX}${secret()}`;
      links.push({ hash: digest(token), expiresAt: now() + ADMIN_LINK_TTL_MS });
      return `${origin}${ADMIN_LOGIN_PATH}?token=${token}`;
    },
    redeem(token) {
      // Expired links go first, so an old one can never be spent.
      const t = now();
      for (let i = links.length - 1; i >= 0; i--) if (links[i]!.expiresAt <= t) links.splice(i, 1);
      if (typeof token !== 'string' || token.length === 0 || token.length > 200) return null;
      const index = findIndex(
        links.map((l) => l.hash),
        token,
      );
      if (index < 0) return null;
      links.splice(index, 1);
      const session = secret();
      sessions.push(digest(session));
      return session;
    },
    isSession(session) {
      if (session.length === 0 || session.length > 200) return false;
      return findIndex(sessions, session) >= 0;
    },
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4)) return true;
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** A Host header naming this machine's loopback: 127.x.x.x, localhost or [::1], with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!match) return false;
  const name = match[1]!;
  return name === 'localhost' || name === '[::1]' || isLoopbackAddress(name);
}

export type AdminRefusal = 'not_loopback' | 'foreign_host' | 'foreign_origin';

/**
 * Whether a request may act as the manager: from a loopback address (the socket's own, never a
 * forwarded header), to a loopback Host, and with no Origin but the app's own (the page's
 * scripts always send one with a POST; `requireOrigin` demands it).
 */
export function adminRequestRefusal(
  request: { remoteAddress: string | undefined; host: string | undefined; origin: string | undefined; fetchSite: string | undefined },
  options: { requireOrigin: boolean },
): AdminRefusal | null {
  if (!isLoopbackAddress(request.remoteAddress)) return 'not_loopback';
  if (!isLoopbackHost(request.host)) return 'foreign_host';
  if (request.origin === undefined) {
    if (options.requireOrigin) return 'foreign_origin';
  } else if (request.origin !== `http://${request.host!.trim().toLowerCase()}`) return 'foreign_origin';
  if (request.fetchSite !== undefined && request.fetchSite !== 'same-origin' && request.fetchSite !== 'none') return 'foreign_origin';
  return null;
}

export function adminRefusalOf(request: FastifyRequest, options: { requireOrigin: boolean }): AdminRefusal | null {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return adminRequestRefusal(
    { remoteAddress: request.socket.remoteAddress, host: header('host'), origin: header('origin'), fetchSite: header('sec-fetch-site') },
    options,
  );
}

export function adminSessionOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ADMIN_COOKIE) return value.join('=') || null;
  }
  return null;
}

/** A session cookie (no Max-Age): it ends with the browser's session, and with this process anyway. */
export function setAdminCookie(reply: FastifyReply, session: string): void {
  reply.header('Set-Cookie', `${ADMIN_COOKIE}=${session}; Path=${KITCHEN_PATH}; HttpOnly; SameSite=Strict`);
}

/** The one-time token masked wherever it appears in a text (request logs, error messages). */
export function redactAdminTokens(text: string): string {
  return text.includes(ADMIN_TOKEN_PREFIX) || /[?&]token=/i.test(text)
    ? text.replace(/cmadm_[A-Za-z0-9_-]*/g, `${ADMIN_TOKEN_PREFIX}[redacted]`).replace(/([?&]token=)(?!cmadm_\[redacted\])[^&#\s]*/gi, '$1[redacted]')
    : text;
}
