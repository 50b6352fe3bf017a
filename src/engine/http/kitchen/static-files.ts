// The built kitchen screen (the renderer, built once into out/renderer) served under /kitchen/,
// with the same strict policy the desktop window gets.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import { CONTENT_SECURITY_POLICY } from '../../../shared/content-security-policy.ts';

/** Content types of the files a renderer build holds (the tests' static server uses them too). */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wav': 'audio/wav',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The header also forbids framing, which a meta tag cannot say. */
const HEADER_POLICY = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

export function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', HEADER_POLICY)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY');
}

const NOT_BUILT = `<!doctype html><html lang="es"><meta charset="utf-8"><title>Comanda</title>
<body style="font-family:sans-serif;padding:2em"><h1>La pantalla de cocina no está construida</h1>
<p>Run <code>npm run build</code> once, then reload this page. (The kitchen screen is not built: run npm run build.)</p></body></html>`;

/** The kitchen's 404, in the shape of every kitchen answer. */
export function notFound(reply: FastifyReply): FastifyReply {
  return securityHeaders(reply).header('Cache-Control', 'no-store').code(404).send({ ok: false, error: { code: 'not_found', message: 'not found' } });
}

/** Sends `relative` (a path under /kitchen/) from `dir`; index.html for the root. */
export async function sendKitchenFile(reply: FastifyReply, dir: string | null, relative: string): Promise<FastifyReply> {
  securityHeaders(reply);
  const wanted = relative === '' || relative === '/' ? 'index.html' : relative.replace(/^\/+/, '');
  if (dir === null) {
    if (wanted !== 'index.html') return notFound(reply);
    return reply.code(503).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(NOT_BUILT);
  }
  const path = normalize(join(dir, wanted));
  if (!path.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return notFound(reply);
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
    const body = await readFile(path);
    // Built assets carry a content hash in their name; the page itself must always be fresh.
    const cache = wanted.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    return reply.type(CONTENT_TYPES[extname(path)] ?? 'application/octet-stream').header('Cache-Control', cache).send(body);
  } catch {
    if (wanted === 'index.html') return reply.code(503).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(NOT_BUILT);
    return notFound(reply);
  }
}
