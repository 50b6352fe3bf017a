// Runs one request of the contract through its handler, for either transport: the channel and the
// payload are checked first, and every outcome comes back as data, the engine's refusals with their
// code and message intact.
import Value from 'typebox/value';
import type { IpcChannel, IpcContract, IpcRequest, IpcResponse, IpcResult } from '../../shared/ipc/contract.ts';
import { isIpcChannel, REQUEST_SCHEMAS } from '../../shared/ipc/contract.ts';
import { invalidRequest, notFound } from '../domain/errors.ts';
import { toFailure } from './screen-errors.ts';

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

/** Every channel of the contract with its handler: what the window and the manager's browser reach. */
export type IpcHandlers = {
  [C in IpcChannel]: (request: IpcRequest<C>) => IpcResponse<C> | Promise<IpcResponse<C>>;
};

/**
 * Runs one request through its handler: the channel and the payload are checked first, and every
 * outcome comes back as data, the engine's refusals with their code and message intact.
 */
export async function dispatchIpc(
  handlers: IpcHandlers,
  channel: unknown,
  request: unknown,
  log?: (error: unknown) => void,
): Promise<IpcResult<unknown>> {
  if (!isIpcChannel(channel)) return { ok: false, error: toFailure(notFound(`no such channel: ${String(channel).slice(0, 60)}`)) };
  return dispatchChannel(handlers, channel, request, log);
}

/** A typed call for code in the same process (tests, the headless harness). */
export async function callIpc<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  request: IpcRequest<C>,
): Promise<IpcResult<IpcContract[C]['response']>> {
  return (await dispatchIpc(handlers, channel, request)) as IpcResult<IpcResponse<C>>;
}
