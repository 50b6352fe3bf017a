// One raw HTTP request to 127.0.0.1 with exactly the headers given (Host, Origin, Sec-Fetch-Site
// included), optionally from another loopback source address (127.x.y.z): what a browser, a page
// on another port or a guesser rotating addresses would send.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  text: string;
}

export function rawRequest(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string; localAddress?: string },
): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const headers = { host: `127.0.0.1:${port}`, ...options.headers };
    const req = httpRequest(
      // A connection of its own (no keep-alive agent): a socket kept from before an engine restart
      // would be reused and answer ECONNRESET (the pairing guard's restart test met it in CI).
      { host: '127.0.0.1', port, method: options.method, path: options.path, headers, agent: false, ...(options.localAddress ? { localAddress: options.localAddress } : {}) },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: the text itself
          }
          done({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      },
    );
    req.on('error', fail);
    req.end(options.body);
  });
}

/** A JSON POST to a kitchen path, as a tablet's page would send it (same-origin). */
export function postJson(port: number, path: string, body: unknown, extra: { headers?: Record<string, string>; localAddress?: string } = {}): Promise<RawAnswer> {
  return rawRequest(port, {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...extra.headers },
    body: JSON.stringify(body),
    ...(extra.localAddress ? { localAddress: extra.localAddress } : {}),
  });
}
