// HTTP as the hardening suites need it: fetch for ordinary calls, a raw socket for what fetch refuses
// to send (control characters, broken framing, clients that never finish).
import { connect } from 'node:net';
import { assertConformsToDocument } from '../support/openapi-conformance.ts';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: any;
  text: string;
}

export interface ApiCall {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function callApi(baseUrl: string, method: string, path: string, options: ApiCall = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: body as BodyInit } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const result = { status: response.status, headers: response.headers, body: parsed, text };
  // Whatever the suite sends, the answer is one the OpenAPI document gives.
  await assertConformsToDocument(baseUrl, method, path, result);
  return result;
}

export interface RawResponse {
  /** null when the server closed without answering. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte sent to the socket's close. */
  elapsedMs: number;
  /** True when the server closed the connection (rather than our timeout cutting it). */
  closedByServer: boolean;
}

/**
 * Sends `chunks` on a fresh connection (with `gapMs` between them) and reads until the server
 * closes or `timeoutMs` passes. Reads only the first response.
 */
export function rawHttp(
  port: number,
  chunks: (string | Buffer)[],
  options: { gapMs?: number; timeoutMs?: number; endAfterSending?: boolean } = {},
): Promise<RawResponse> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let closedByServer = true;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = rest.join('\r\n\r\n');
      const length = Number(headers['content-length']);
      if (Number.isInteger(length)) body = Buffer.from(body, 'utf8').subarray(0, length).toString('utf8');
      resolve({ status: statusMatch ? Number(statusMatch[1]) : null, headers, body, elapsedMs: Date.now() - started, closedByServer });
    };
    const timer = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
      finish();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.on('connect', async () => {
      for (const [index, chunk] of chunks.entries()) {
        if (socket.destroyed) return;
        if (index > 0 && options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
        if (socket.destroyed) return;
        socket.write(chunk);
      }
      if (options.endAfterSending) socket.end();
    });
  });
}

/** A body as JSON, or undefined. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
