// One request to the engine's API as the tests send it (JSON in and out, a connection per request),
// its answer checked against the OpenAPI document the engine serves. Apart from engine-under-test.ts
// (which re-exports it), so a test of engine processes it does not start itself (serve's nodes)
// sends its requests without loading the engine into its own process.
import { Agent, fetch } from 'undici';
import { assertConformsToDocument } from './openapi-conformance.ts';

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** API JSON, read freely by tests. */
  body: any;
  text: string;
}

/**
 * The tests' connections are never reused (pipelining 0: one request per connection). A reused idle
 * socket races the engine's 5 s keep-alive: on a busy machine (load 30) a process stalled past it,
 * the server's exact socket timeout closed the socket before undici's coarse timers retired it, and
 * the next request on it failed with ECONNRESET (a 100 ms client keep-alive did not prevent it).
 * The tests that are about keep-alive make their own connections.
 */
const connections = new Agent({ pipelining: 0 });

/**
 * One request to the API at `baseUrl` with a key (the default one, another, or none), JSON in and
 * out. The answer is checked against the OpenAPI document the engine serves (a drift throws).
 */
export async function callApi(
  baseUrl: string,
  defaultKey: string | null,
  method: string,
  path: string,
  callOptions: CallOptions = {},
): Promise<CallResult> {
  const key = callOptions.key === undefined ? defaultKey : callOptions.key;
  const headers: Record<string, string> = { ...callOptions.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (callOptions.rawBody !== undefined) body = callOptions.rawBody;
  else if (callOptions.body !== undefined) {
    body = JSON.stringify(callOptions.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, dispatcher: connections, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const result = { status: response.status, headers: new Headers([...response.headers]), body: parsed, text };
  await assertConformsToDocument(baseUrl, method, path, result);
  return result;
}
