// PrintJobsStore's contract, on both databases: each printer's queue in order, the jobs' states,
// the status strip's counts and the purge of finished jobs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NewPrintJob } from '../../../../src/engine/store/print-jobs-store.ts';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const PRINTERS_SEED = `INSERT INTO printers (id, restaurant_id, name, host, port, width_mm, code_page, stations, print_when, fallback_seconds, state, created_at, updated_at) VALUES
  ('pr-1', '${R1}', 'Cocina', '192.168.1.50', 9100, 80, 'cp858', '[]', '["arrival"]', 90, 'unknown', 0, 0),
  ('pr-2', '${R1}', 'Barra', '192.168.1.51', 9100, 58, 'cp858', '[]', '["arrival"]', 90, 'unknown', 0, 0),
  ('pr-3', '${R2}', 'Única', '192.168.1.52', 9100, 80, 'cp858', '[]', '["arrival"]', 90, 'unknown', 0, 0);`;

const job = (id: string, changes: Partial<NewPrintJob> = {}): NewPrintJob => ({
  id, restaurant_id: R1, printer_id: 'pr-1', order_id: 'pj-order', kind: 'ticket', station_id: null, document: '{"lines":["Completo"]}',
  status: 'queued', reprint: 0, next_attempt_at: 100, created_at: 100, ...changes,
});

export function printJobsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED + PRINTERS_SEED);
    await db.stores.orders.insert(orderRow('pj-order'));
  });
  after(() => db.stop());

  test('a job reads back as written, its counters at zero; a printer\'s head is its oldest queued or sending job', async () => {
    const { printJobs } = db.stores;
    await printJobs.insert(job('j-1'));
    await printJobs.insert(job('j-2', { order_id: null, kind: 'bag', station_id: 'barra', created_at: 110 }));
    await printJobs.insert(job('j-3', { printer_id: 'pr-2', status: 'held', kind: 'fallback', next_attempt_at: null }));
    const read = await printJobs.get('j-1');
    assert.deepEqual(read, {
      ...job('j-1'), seq: read!.seq, attempts: 0, failed_sends: 0, last_error: null, updated_at: 100, printed_at: null,
    });
    assert.equal(await printJobs.get('none'), undefined);
    assert.equal((await printJobs.head('pr-1'))?.id, 'j-1');
    assert.equal(await printJobs.head('pr-2'), undefined, 'a held job is no head');
    assert.deepEqual(await printJobs.printersToServe(), ['pr-1']);
    assert.deepEqual((await printJobs.held()).map((j) => j.id), ['j-3']);
    assert.deepEqual((await printJobs.ofOrder('pj-order')).map((j) => j.id), ['j-1', 'j-3']);
    assert.deepEqual((await printJobs.recent(R1, 2)).map((j) => j.id), ['j-3', 'j-2']);
  });

  test('update sets the columns it is given and the time; sending, set aside and open counts follow', async () => {
    const { printJobs } = db.stores;
    await printJobs.update('j-1', { status: 'sending', attempts: 1 }, 200);
    assert.deepEqual((await printJobs.sending()).map((j) => j.id), ['j-1']);
    await printJobs.update('j-1', { status: 'printed', printed_at: 250, next_attempt_at: null, last_error: null }, 250);
    const printed = await printJobs.get('j-1');
    assert.deepEqual([printed?.status, printed?.attempts, printed?.printed_at, printed?.next_attempt_at, printed?.updated_at], ['printed', 1, 250, null, 250]);
    assert.equal((await printJobs.head('pr-1'))?.id, 'j-2');
    await printJobs.update('j-2', { status: 'set_aside', failed_sends: 3, last_error: 'sin confirmación' }, 260);
    assert.deepEqual((await printJobs.setAsideOf('pr-1')).map((j) => [j.id, j.failed_sends, j.last_error]), [['j-2', 3, 'sin confirmación']]);
    await printJobs.insert(job('j-4', { printer_id: 'pr-2' }));
    await printJobs.insert(job('j-5', { printer_id: 'pr-3', restaurant_id: R2, order_id: null }));
    const counts = (await printJobs.openCounts(R1)).map((c) => `${c.printer_id}/${c.status}/${c.n}`).sort();
    assert.deepEqual(counts, ['pr-1/set_aside/1', 'pr-2/held/1', 'pr-2/queued/1']);
  });

  test('a printer\'s open jobs are dropped (set aside too), counted; finished ones purged oldest first, at most the limit', async () => {
    const { printJobs } = db.stores;
    assert.equal(await printJobs.dropOpenOf('pr-2', 300), 2);
    assert.equal(await printJobs.dropOpenOf('pr-2', 301), 0);
    assert.deepEqual((await printJobs.ofOrder('pj-order')).map((j) => [j.id, j.status]), [['j-1', 'printed'], ['j-3', 'dropped'], ['j-4', 'dropped']]);
    assert.equal(await printJobs.deleteFinishedBefore(300, 10), 1, 'j-1 (printed at 250); the dropped ones changed at 300');
    assert.equal(await printJobs.deleteFinishedBefore(301, 1), 1);
    assert.equal(await printJobs.deleteFinishedBefore(301, 10), 1);
    assert.equal(await printJobs.deleteFinishedBefore(301, 10), 0);
    assert.deepEqual((await printJobs.recent(R1, 10)).map((j) => j.id), ['j-2']);
  });

  test('claim: a queued job once due, once only; its outcome recorded only under its own lease; a lapsed lease taken over as a reprint', async () => {
    const { printJobs } = db.stores;
    await printJobs.insert(job('c-1', { printer_id: 'pr-3', restaurant_id: R2, order_id: null, next_attempt_at: 500 }));
    assert.equal(await printJobs.claim('c-1', 499, 1_000, false), undefined, 'not due yet');
    const claimed = await printJobs.claim('c-1', 500, 1_000, false);
    assert.deepEqual([claimed?.status, claimed?.attempts, claimed?.next_attempt_at, claimed?.reprint, claimed?.updated_at], ['sending', 1, 1_000, 0, 500]);
    assert.equal(await printJobs.claim('c-1', 500, 1_100, false), undefined, 'a second claim gets nothing');
    assert.equal(await printJobs.claim('c-1', 999, 1_100, true), undefined, 'a lease not ended is not taken over');
    assert.equal(await printJobs.updateClaimed('c-1', 999, { status: 'printed' }, 600), false, 'another lease records nothing');
    const taken = await printJobs.claim('c-1', 1_000, 2_000, true);
    assert.deepEqual([taken?.status, taken?.attempts, taken?.next_attempt_at, taken?.reprint], ['sending', 2, 2_000, 1]);
    assert.equal(await printJobs.updateClaimed('c-1', 1_000, { status: 'printed', printed_at: 1_100 }, 1_100), false, 'the lapsed claim records nothing');
    assert.equal(await printJobs.updateClaimed('c-1', 2_000, { status: 'printed', printed_at: 1_200, next_attempt_at: null }, 1_200), true);
    const printed = await printJobs.get('c-1');
    assert.deepEqual([printed?.status, printed?.printed_at, printed?.updated_at], ['printed', 1_200, 1_200]);
    assert.equal(await printJobs.updateClaimed('c-1', 2_000, { status: 'queued' }, 1_300), false, 'a finished job is not sending');
    assert.equal(await printJobs.claim('c-1', 5_000, 6_000, true), undefined, 'a printed job is never claimed');
  });
}
