import type { Engine } from '../engine.ts';
import type { CourierRegistry } from '../couriers/courier-registry.ts';
import { dueCourierDeliveries, followCourierDelivery } from '../services/delivery/follow-courier-deliveries.ts';
import type { JobsLogger } from './jobs-logger.ts';

/** Deliveries handled at once: a slow courier holds up its own calls, not the whole queue. */
const BATCH = 20;

/**
 * Performs every courier intent due now (dispatch, retry, status check, cancellation), each in
 * its own claim → call → record steps (services/delivery/follow-courier-deliveries.ts), a batch at a time.
 * `shouldStop` is checked between batches; a call under way is always recorded.
 */
export async function followDueCourierDeliveries(
  engine: Engine,
  couriers: CourierRegistry,
  log: JobsLogger,
  timeoutMs: number,
  shouldStop: () => boolean,
): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    if (shouldStop()) return;
    const ids = (await dueCourierDeliveries(engine, BATCH * 5)).filter((id) => !tried.has(id)).slice(0, BATCH);
    if (ids.length === 0) return;
    for (const id of ids) tried.add(id);
    await Promise.all(
      ids.map((id) =>
        followCourierDelivery(engine, couriers, id, timeoutMs).catch((error: unknown) =>
          log.error({ err: error, job: 'follow-courier-deliveries', id }, 'courier work failed; the others go on'),
        ),
      ),
    );
  }
}
