// The manager's screens over HTTP (`npm start` without Electron): a browser on the same machine
// gets the desktop channels once it holds an admin session. The session comes from a one-time link
// printed in the terminal (the model Jupyter uses): a long random secret, single use, short-lived,
// exchanged for an HttpOnly, SameSite=Strict cookie. Admin requests are answered only from a
// loopback address, for a loopback Host (no DNS rebinding) and from the app's own Origin, whatever
// the LAN setting. Secrets are kept as SHA-256 digests and compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KITCHEN_PATH } from '../../../shared/screen-contract/devices.ts';
import { adminRequestRefusal, requestOriginOf, type OriginRefusal } from './request-origin.ts';

/** The cookie holding the admin session (never readable by the page's scripts). */
const ADMIN_COOKIE = 'comanda_admin';
/** Where the one-time link lands: /kitchen/admin?token=… */
const ADMIN_LOGIN_PATH = `${KITCHEN_PATH}/admin`;
/** How long a printed link may wait to be opened. */
export const ADMIN_LINK_TTL_MS = 10 * 60_000;
/** Every one-time token starts so: a log redactor can recognise it anywhere. */
const ADMIN_TOKEN_PREFIX = 'cmadm_';

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

export function adminRefusalOf(request: FastifyRequest, options: { requireOrigin: boolean }): OriginRefusal | null {
  return adminRequestRefusal(requestOriginOf(request), options);
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
    ? text.replace(/cmadm_(?!\[redacted\])[A-Za-z0-9_-]*/g, `${ADMIN_TOKEN_PREFIX}[redacted]`).replace(/([?&]token=)(?!cmadm_\[redacted\])[^&#\s]*/gi, '$1[redacted]')
    : text;
}
