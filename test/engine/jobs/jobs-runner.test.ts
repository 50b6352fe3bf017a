import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/engine/clock.ts';
import { importDemoRestaurants } from '../../../src/engine/demo/seed-demo.ts';
import { defaultCouriers } from '../../../src/engine/couriers/courier-registry.ts';
import { Engine } from '../../../src/engine/engine.ts';
import { assembleProviders } from '../../../src/engine/providers.ts';
import { startJobs, type JobsRunner } from '../../../src/engine/jobs/start-jobs.ts';
import type { MailSender, OutgoingMail } from '../../../src/engine/mail/mail-sender.ts';
import { sandboxSimulator } from '../../../src/engine/payments/sandbox-simulator.ts';
import { createOrder } from '../../../src/engine/services/orders/create-order.ts';
import { placeOnlineOrder } from '../../../src/engine/services/orders/place-order.ts';
import { transitionOrder } from '../../../src/engine/services/orders/transition-order.ts';
import type { Actor } from '../../../src/engine/domain/actor.ts';
import { DEMO_NOW } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { fakeLiveProvider } from './engine-with-jobs.ts';
import { holdWriteLock } from '../../support/write-lock-holder.ts';

const MINUTE = 60_000;
const payments = { live: fakeLiveProvider, test: sandboxSimulator };
const couriers = defaultCouriers();
const actor: Actor = { restaurantId: R1.id, world: 'live', canWrite: true, keyId: 'jobs-test' };

describe('the jobs runner', () => {
  let dir: string;
  let engine: Engine;
  let clock: ManualClock;
  let jobs: JobsRunner | null = null;
  const logged: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const logger = {
    info: (obj: object, msg: string) => logged.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj: object, msg: string) => logged.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj: object, msg: string) => logged.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-runner-'));
    clock = new ManualClock(DEMO_NOW);
    engine = new Engine({ database: join(dir, 'engine.db'), clock });
    await importDemoRestaurants(engine, payments);
  });
  after(async () => {
    await jobs?.stop();
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const online = () =>
    placeOnlineOrder(
      { engine, payments },
      actor,
      {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Job', email: 'job@example.com' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
        payment: 'online',
        return_url: 'https://tienda.example/vuelta',
      },
      'http://127.0.0.1',
    );
  const statusOf = async (id: string) => (await engine.stores.orders.getById(id))!.status;

  test('one bad item never blocks the others; it is logged, left alone a minute, then retried', async () => {
    const bad = await online();
    clock.advance(1000);
    const good = await online();
    // A corrupted row: cancelling it throws (its items cannot be read to give stock back).
    engine.db.prepare(`UPDATE orders SET items = 'not json', stock_taken = 1 WHERE id = ?`).run(bad.id);
    jobs = await startJobs(engine, assembleProviders(engine, { payments }), { logger, intervalMs: 3_600_000 });

    clock.advance(30 * MINUTE);
    await jobs.databaseJobs();
    assert.equal(await statusOf(good.id), 'cancelado', 'the good one expired although the bad one came first');
    assert.equal(await statusOf(bad.id), 'pendiente_pago', 'the bad one rolled back whole');
    const errors = () => logged.filter((l) => l.level === 'error' && l.obj.id === bad.id);
    assert.equal(errors().length, 1);
    assert.equal(errors()[0]!.obj.job, 'expire-unpaid-orders');

    clock.advance(30_000);
    await jobs.databaseJobs();
    assert.equal(errors().length, 1, 'not retried within its quarantine');
    clock.advance(30_000);
    await jobs.databaseJobs();
    assert.equal(errors().length, 2, 'retried after a minute');

    engine.db.prepare(`UPDATE orders SET items = '[]' WHERE id = ?`).run(bad.id);
    clock.advance(MINUTE);
    await jobs.databaseJobs();
    assert.equal(await statusOf(bad.id), 'cancelado');
    await jobs.stop();
    jobs = null;
  });

  test('another process holding the file: the pass skips without waiting, says so once, sets nothing aside, and runs once it lets go', async () => {
    const due = await online();
    jobs = await startJobs(engine, assembleProviders(engine, { payments }), { logger, intervalMs: 3_600_000 });
    await jobs.databaseJobs();
    logged.length = 0;
    const holder = await holdWriteLock(join(dir, 'engine.db'));
    try {
      clock.advance(30 * MINUTE);
      await jobs.databaseJobs();
      await jobs.runDue();
      assert.equal(await statusOf(due.id), 'pendiente_pago', 'nothing written while the file is held');
      assert.deepEqual(
        logged.map((l) => [l.level, l.msg]),
        [['warn', "another program holds the database file's write lock: the jobs skip their database work until it lets go"]],
        'said once for two skipped passes, and no job failed',
      );
    } finally {
      await holder.release();
    }
    await jobs.runDue();
    assert.equal(await statusOf(due.id), 'cancelado', 'expired on the first pass after: not set aside');
    assert.equal(logged.filter((l) => l.level === 'info' && l.obj.skipped === 2).length, 1, 'the skips end said once');
    await jobs.stop();
    jobs = null;
  });

  test('mail: a sender that throws for one address still delivers the others, and stop waits for the pass', async () => {
    const sent: OutgoingMail[] = [];
    let closed = 0;
    const sender: MailSender = {
      description: 'test sender',
      async send(mail) {
        // Asynchronous like a real send (a turn of the event loop), with no fixed time.
        await new Promise((resolve) => setImmediate(resolve));
        if (mail.to === 'rebota@example.com') throw new Error('550 mailbox unavailable');
        sent.push(mail);
      },
      close() {
        closed++;
      },
    };
    const ready = async (email: string) => {
      const order = await createOrder(
        engine,
        actor,
        { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Cliente', email }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
        { payments, origin: 'http://127.0.0.1' },
      );
      await transitionOrder(engine, actor, order.id, 'en_preparacion', couriers);
      await transitionOrder(engine, actor, order.id, 'listo', couriers);
      return order.id;
    };
    await ready('rebota@example.com');
    await ready('uno@example.com');
    await ready('dos@example.com');
    jobs = await startJobs(engine, assembleProviders(engine, { payments, mail: sender }), { logger, intervalMs: 3_600_000 });
    await jobs.runDue();
    assert.deepEqual(sent.map((m) => m.to).sort(), ['dos@example.com', 'uno@example.com']);
    assert.ok(logged.some((l) => l.level === 'warn' && l.msg === 'mail not sent; will retry'));

    // Replacing the sender closes the old one; stopping closes the current one.
    const other: MailSender = { description: 'other', send: async () => {}, close: () => closed++ };
    jobs.setMailSender(other);
    assert.equal(closed, 1);
    await jobs.stop();
    assert.equal(closed, 2);
    jobs = null;
  });

  test('a replica runs no jobs: its upstream does', async () => {
    const replica = new Engine({ database: engine.db, clock, role: 'replica' });
    const order = await online();
    const runner = await startJobs(replica, assembleProviders(replica, { payments }), { intervalMs: 3_600_000 });
    clock.advance(31 * MINUTE);
    await runner.runDue();
    assert.equal(await statusOf(order.id), 'pendiente_pago');
    await runner.stop();
  });
});
