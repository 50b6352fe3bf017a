import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { CONTENT_TYPES } from '../../../src/engine/http/kitchen/static-files.ts';

/** Where the harness's page posts its bridge calls: same origin, so the page's CSP (connect-src 'self') lets it. */
export const IPC_PATH = '/__ipc';

/** Answers one bridge call, as JSON text; null when the engine is out of reach (the page's call then fails). */
export type IpcAnswer = (channel: unknown, request: unknown) => Promise<string | null>;

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Serves a built page on 127.0.0.1 (any free port), as the app's window would load it; with `ipc`,
 * also the page's bridge calls (POST /__ipc), carried over loopback HTTP like a tablet's.
 */
export async function serveStatic(dir: string, ipc?: IpcAnswer): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (ipc && request.method === 'POST' && request.url === IPC_PATH) {
      void bodyOf(request)
        .then((text) => {
          const { channel, request: payload } = JSON.parse(text) as { channel: unknown; request: unknown };
          return ipc(channel, payload);
        })
        .then(
          (answer) => {
            if (answer === null) response.writeHead(503, { 'cache-control': 'no-store' }).end();
            else response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(answer);
          },
          () => response.writeHead(400).end(),
        );
      return;
    }
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(response);
  });
  // Connections idle between calls stay open (keep-alive); close() must not wait for them.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
