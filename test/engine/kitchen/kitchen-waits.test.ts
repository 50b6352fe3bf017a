// The kitchen's wait on every heartbeat (issue 32): the same minutes as GET /locations' live
// `kitchen_wait_minutes` for each active location, rising with the queue and falling with a bump,
// and `paused` while busy mode has paused the location's store fronts. The board's strip shows it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { heartbeatPush, STANDALONE_STATUS } from '../../../src/engine/screen/live-hub.ts';
import { setBusyOverride } from '../../../src/engine/services/kitchen/busy-mode.ts';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';
import { setItemDone } from '../../../src/engine/services/kitchen/kitchen-items.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const beatWaits = async () => {
  const beat = await heartbeatPush(engine.server.engine, R1.id, STANDALONE_STATUS, 2000);
  assert.equal(beat.kind, 'heartbeat');
  return beat.kind === 'heartbeat' ? beat.kitchen_waits! : [];
};
const listed = async () => {
  const answer = await engine.call('GET', '/locations');
  return answer.body.data.filter((l: { is_active: boolean }) => l.is_active).map((l: { location_id: string; kitchen_wait_minutes: number }) => [l.location_id, l.kitchen_wait_minutes]);
};

test('each heartbeat carries every active location\'s live wait, as GET /locations says it; it follows orders, bumps and a pause', async () => {
  const idle = await beatWaits();
  assert.deepEqual(idle.map((w) => [w.location_id, w.wait_minutes]), await listed());
  assert.ok(!idle.some((w) => w.location_id === R1.inactiveLocation), 'an inactive location has no wait');
  const wait = async () => (await beatWaits()).find((w) => w.location_id === R1.openLocation)!;
  const before = (await wait()).wait_minutes;

  const orders: { id: string }[] = [];
  // The oven (12 empanadas at once, resources/demo) is the station that frees last: five dozens of
  // empanadas de camarón queso are five bakes one after the other.
  for (let i = 0; i < 5; i++) {
    const created = await engine.call('POST', '/orders', { body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: R1.products.empanadaCamaronQueso, quantity: 12 }] } });
    assert.equal(created.status, 201, created.text);
    orders.push(created.body);
  }
  const busy = (await wait()).wait_minutes;
  assert.ok(busy > before, `five dozens: ${busy} min, was ${before} min`);
  assert.deepEqual((await beatWaits()).map((w) => [w.location_id, w.wait_minutes]), await listed());

  const actor = kitchenActor(R1.id, 'live');
  await setItemDone(engine.server.engine, actor, orders[0]!.id, 0, true);
  await setItemDone(engine.server.engine, actor, orders[1]!.id, 0, true);
  const lower = (await wait()).wait_minutes;
  assert.ok(lower < busy, `two bumped: ${lower} min, was ${busy} min`);

  assert.equal((await wait()).paused, false);
  await setBusyOverride(engine.server.engine, actor, R1.openLocation, 'pause');
  assert.deepEqual(await wait(), { location_id: R1.openLocation, wait_minutes: lower, paused: true });
  await setBusyOverride(engine.server.engine, actor, R1.openLocation, 'resume');
  assert.equal((await wait()).paused, false);
});
