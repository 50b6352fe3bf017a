// Where a kitchen request comes from, the one rule for the kitchen door and the manager's browser
// door alike. The Host must name this machine: loopback, one of its own network addresses, or a
// name the host configured (so DNS rebinding, a foreign name pointing at this address, gets
// nothing). A request a page's script made must come from the engine's own origin: an `Origin`
// header other than http://<Host>, or `Sec-Fetch-Site` other than same-origin/none (a page on the
// same machine at another port is "same-site", and Chromium sends SameSite=Strict cookies to it),
// is refused. A client that sends neither is no browser driven by some page, and passes.
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4)) return true;
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** The name a Host header carries (lower case, IPv6 in brackets), without its port; null if malformed. */
function hostName(host: string | undefined): string | null {
  if (!host) return null;
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  return match ? match[1]! : null;
}

/** A Host header naming this machine's loopback: 127.x.x.x, localhost or [::1], with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  const name = hostName(host);
  if (name === null) return false;
  return name === 'localhost' || name === '[::1]' || isLoopbackAddress(name);
}

export type OriginRefusal = 'not_loopback' | 'foreign_host' | 'foreign_origin';

export interface RequestOrigin {
  remoteAddress: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
}

/** Whether a page's script made this request from anywhere but the engine's own origin. */
function isForeignOrigin(request: RequestOrigin, options: { requireOrigin: boolean }): boolean {
  if (request.origin === undefined) {
    if (options.requireOrigin) return true;
  } else if (request.host === undefined || request.origin !== `http://${request.host.trim().toLowerCase()}`) return true;
  return request.fetchSite !== undefined && request.fetchSite !== 'same-origin' && request.fetchSite !== 'none';
}

export function requestOriginOf(request: FastifyRequest): RequestOrigin {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return { remoteAddress: request.socket.remoteAddress, host: header('host'), origin: header('origin'), fetchSite: header('sec-fetch-site') };
}

/** The host names a kitchen request may carry besides loopback: this machine's addresses and host name, and configured names. */
export function allowedHosts(configured: readonly string[] = []): (name: string) => boolean {
  // The machine's own host name (and its mDNS form) is this machine too.
  const machine = hostname().toLowerCase();
  const configuredNames = new Set([...configured, machine, `${machine}.local`].map((n) => hostName(n)).filter((n): n is string => n !== null));
  let own = new Set<string>();
  let readAt = -Infinity;
  const ownAddresses = () => {
    // Interfaces come and go (a laptop changes networks): read them again at most every 10 s.
    const now = performance.now();
    if (now - readAt > 10_000) {
      readAt = now;
      own = new Set(
        Object.values(networkInterfaces())
          .flat()
          .filter((i) => i !== undefined)
          .map((i) => (i.family === 'IPv6' ? `[${i.address.toLowerCase()}]` : i.address)),
      );
    }
    return own;
  };
  return (name) => name === 'localhost' || isLoopbackHost(name) || configuredNames.has(name) || ownAddresses().has(name);
}

/**
 * Every kitchen request: the Host must name this machine; a request a page's script makes (every
 * call but a navigation) must come from the engine's own origin.
 */
export function kitchenRequestRefusal(request: RequestOrigin, hostAllowed: (name: string) => boolean, options: { navigation: boolean }): OriginRefusal | null {
  const name = hostName(request.host);
  if (name === null || !hostAllowed(name)) return 'foreign_host';
  if (!options.navigation && isForeignOrigin(request, { requireOrigin: false })) return 'foreign_origin';
  return null;
}

/**
 * Whether a request may act as the manager: from a loopback address (the socket's own, never a
 * forwarded header), to a loopback Host, and with no Origin but the app's own (the page's
 * scripts always send one with a POST; `requireOrigin` demands it).
 */
export function adminRequestRefusal(request: RequestOrigin, options: { requireOrigin: boolean }): OriginRefusal | null {
  if (!isLoopbackAddress(request.remoteAddress)) return 'not_loopback';
  if (!isLoopbackHost(request.host)) return 'foreign_host';
  return isForeignOrigin(request, options) ? 'foreign_origin' : null;
}
