import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dispatch } from '../../../src/engine/screen/dispatch.ts';
import { createKitchenHandlers } from '../../../src/engine/screen/kitchen-handlers.ts';
import { KitchenError } from '../../../src/engine/domain/errors.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { handlersFor } from './support.ts';

// The one path of both transports: channel (by the caller's reach), then the door's guards, then the
// payload's schema, then the handler.
describe('dispatch: one path for IPC and the kitchen door', () => {
  let engine: EngineUnderTest;
  before(async () => {
    engine = await startEngineUnderTest({ now: '2026-11-20T21:00:00-03:00' });
  });
  after(async () => {
    await engine.stop();
  });

  test('a tablet reaches the kitchen rows only; an unknown or desktop channel is not_found before its guard runs', async () => {
    const kitchen = createKitchenHandlers({ engine: engine.server.engine, commands: engine.server.commands, restaurantId: R1.id });
    let guarded = 0;
    const route = {
      reach: 'kitchen' as const,
      handlers: () => {
        guarded += 1;
        return kitchen;
      },
    };
    for (const channel of ['keys:list', 'settings:get', 'orders:delete-all', '__proto__', 42, undefined]) {
      const refused = await dispatch(route, channel, {});
      assert.equal(!refused.ok && refused.error.code, 'not_found', String(channel));
    }
    assert.equal(guarded, 0, 'no guard (device, write budget) is spent on a channel that does not exist here');
    const snapshot = await dispatch(route, 'board:snapshot', undefined);
    assert.equal(snapshot.ok, true);
    assert.equal(guarded, 1);
  });

  test("the door's refusal comes before the payload is read; the payload's before the handler", async () => {
    const unpaired = await dispatch(
      { reach: 'kitchen', handlers: () => { throw new KitchenError('device_unpaired', 'pair it again'); } },
      'orders:transition',
      { order_id: 'nope' },
    );
    assert.deepEqual(unpaired, { ok: false, error: { code: 'device_unpaired', message: 'pair it again' } });

    const ipc = handlersFor(engine);
    const everything = { reach: 'all' as const, handlers: ipc.handlers };
    const bad = await dispatch(everything, 'orders:transition', { order_id: 'nope', target: 'listo' });
    assert.equal(!bad.ok && bad.error.code, 'invalid_request');
    assert.match(!bad.ok ? bad.error.message : '', /^orders:transition: order_id /);
    const desktop = await dispatch(everything, 'keys:list', {});
    assert.equal(desktop.ok, true, 'the desktop window reaches the desktop rows');
  });

  test('anything else a handler throws is hidden from the screen and logged', async () => {
    const logged: unknown[] = [];
    const ipc = handlersFor(engine);
    const broken = { ...ipc.handlers, 'board:snapshot': () => { throw new Error('disk on fire'); } };
    const result = await dispatch({ reach: 'all', handlers: broken, log: (error) => logged.push(error) }, 'board:snapshot', {});
    assert.deepEqual(result, { ok: false, error: { code: 'internal_error', message: 'internal error; the action was not completed' } });
    assert.equal((logged[0] as Error).message, 'disk on fire');
  });
});
