import type { Engine } from '../engine.ts';
import type { MailSender } from '../mail/mail-sender.ts';
import { claimMail, dueMail, recordMailFailure, recordMailSent } from '../services/mail/mail-outbox.ts';
import type { JobsLogger } from './jobs-logger.ts';

const BATCH = 20;

/**
 * Sends every mail due now, one attempt each, outside any transaction. Each mail is claimed,
 * sent and recorded on its own, so one bad address or a dead server never stops the others.
 * `shouldStop` is checked before each mail; an attempt under way is always recorded.
 */
export async function sendQueuedMail(engine: Engine, sender: MailSender, log: JobsLogger, shouldStop: () => boolean): Promise<void> {
  const tried = new Set<number>();
  for (;;) {
    if (shouldStop()) return;
    const ids = (await dueMail(engine, BATCH)).filter((id) => !tried.has(id));
    if (ids.length === 0) return;
    for (const id of ids) {
      if (shouldStop()) return;
      tried.add(id);
      const mail = await claimMail(engine, id);
      if (!mail) continue;
      try {
        await sender.send({ fromName: mail.from_name, to: mail.to_address, subject: mail.subject, text: mail.body_text });
      } catch (error) {
        const next = await recordMailFailure(engine, id, error);
        log.warn({ mail_id: id, order_id: mail.order_id, attempt: mail.attempts, err: error }, next === 'failed' ? 'mail given up' : 'mail not sent; will retry');
        continue;
      }
      await recordMailSent(engine, id);
    }
  }
}
