// The one path every request of the contract takes, on either transport (Electron IPC in src/main,
// the kitchen's HTTP door): the channel is looked up in the channel table (unknown, or beyond the
// caller's reach: not_found), the door's own guards run (an unpaired tablet, too many writes), the
// payload must pass the channel's schema, and the handler runs. Every outcome comes back as data,
// the engine's refusals with their code and message intact.
import Value from 'typebox/value';
import type { ScreenChannel, ScreenContract, ScreenRequest, ScreenResponse, ScreenResult } from '../../shared/screen-contract/contract.ts';
import { isScreenChannel, isKitchenChannel, KITCHEN_CHANNELS, REQUEST_SCHEMAS } from '../../shared/screen-contract/contract.ts';
import { invalidRequest, notFound } from '../domain/errors.ts';
import type { KitchenHandlers } from './kitchen-handlers.ts';
import { toFailure } from './screen-errors.ts';

/** Every channel of the contract with its handler: what the window and the manager's browser reach. */
export type ScreenHandlers = {
  [C in ScreenChannel]: (request: ScreenRequest<C>) => ScreenResponse<C> | Promise<ScreenResponse<C>>;
};

/**
 * Who is calling and what they reach: `all`, the desktop's window and the manager's browser (every
 * channel); `kitchen`, a paired tablet (the kitchen's rows of the table only: a desktop channel does
 * not exist for it).
 */
export type Route =
  | { reach: 'all'; handlers: ScreenHandlers | ((channel: ScreenChannel) => ScreenHandlers | Promise<ScreenHandlers>); log?: (error: unknown) => void }
  | { reach: 'kitchen'; handlers: KitchenHandlers | ((channel: ScreenChannel) => KitchenHandlers | Promise<KitchenHandlers>); log?: (error: unknown) => void };
// `handlers` as a function: the door's guards, run once the channel is known (and told which) and
// before the payload is read; it throws its refusal (ApiError, KitchenError) or gives this caller's handlers.

function channelIn(route: Route, channel: unknown): ScreenChannel {
  const name = String(channel).slice(0, 60);
  if (route.reach === 'kitchen') {
    if (!isKitchenChannel(channel)) throw notFound(`no such kitchen channel: ${name} (kitchen screens may use ${KITCHEN_CHANNELS.join(', ')})`);
    return channel;
  }
  if (!isScreenChannel(channel)) throw notFound(`no such channel: ${name}`);
  return channel;
}

export async function dispatch(route: Route, channel: unknown, request: unknown): Promise<ScreenResult<unknown>> {
  try {
    const known = channelIn(route, channel);
    const handlers = (typeof route.handlers === 'function' ? await route.handlers(known) : route.handlers) as Record<string, (request: unknown) => unknown>;
    const payload = request === undefined || request === null ? {} : request;
    const schema = REQUEST_SCHEMAS[known];
    if (!Value.Check(schema, payload)) {
      const first = [...Value.Errors(schema, payload)][0];
      const field = first?.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'request';
      throw invalidRequest(`${known}: ${field} ${first?.message ?? 'is not valid'}`);
    }
    return { ok: true, value: await handlers[known]!(payload) };
  } catch (error) {
    return { ok: false, error: toFailure(error, route.log) };
  }
}

/** Every channel, in this process (the window's IPC, tests, the headless harness). */
export function dispatchScreenCall(handlers: ScreenHandlers, channel: unknown, request: unknown, log?: (error: unknown) => void): Promise<ScreenResult<unknown>> {
  return dispatch({ reach: 'all', handlers, log }, channel, request);
}

/** A typed call for code in the same process (tests, the headless harness). */
export async function callScreenHandler<C extends ScreenChannel>(
  handlers: ScreenHandlers,
  channel: C,
  request: ScreenRequest<C>,
): Promise<ScreenResult<ScreenContract[C]['response']>> {
  return (await dispatchScreenCall(handlers, channel, request)) as ScreenResult<ScreenResponse<C>>;
}
