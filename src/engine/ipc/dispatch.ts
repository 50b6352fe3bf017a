// Runs one request of the contract through its handler, for either transport: the channel and the
// payload are checked first, and every outcome comes back as data, the engine's refusals with their
// code and message intact.
import Value from 'typebox/value';
import type { IpcResult } from '../../shared/ipc/contract.ts';
import { REQUEST_SCHEMAS } from '../../shared/ipc/contract.ts';
import { invalidRequest, notFound } from '../domain/errors.ts';
import { toFailure } from './ipc-errors.ts';

type AnyHandlers = Record<string, (request: never) => unknown>;

export async function dispatchChannel(
  handlers: AnyHandlers,
  channel: unknown,
  request: unknown,
  log?: (error: unknown) => void,
): Promise<IpcResult<unknown>> {
  try {
    if (typeof channel !== 'string' || !Object.hasOwn(handlers, channel) || !Object.hasOwn(REQUEST_SCHEMAS, channel)) {
      throw notFound(`no such channel: ${String(channel).slice(0, 60)}`);
    }
    const payload = request === undefined || request === null ? {} : request;
    const schema = REQUEST_SCHEMAS[channel as keyof typeof REQUEST_SCHEMAS];
    if (!Value.Check(schema, payload)) {
      const first = [...Value.Errors(schema, payload)][0];
      const field = first?.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'request';
      throw invalidRequest(`${channel}: ${field} ${first?.message ?? 'is not valid'}`);
    }
    const handler = handlers[channel] as (request: unknown) => unknown;
    return { ok: true, value: await handler(payload) };
  } catch (error) {
    return { ok: false, error: toFailure(error, log) };
  }
}
