import type { MailInfo } from '../shared/screen-contract/settings.ts';
import { NO_MAIL } from '../shared/screen-contract/settings.ts';
import { checkSmtpSettings, type SmtpSettings } from '../engine/mail/smtp-sender.ts';

/** What the screen may know of the SMTP settings: the server and the sender, never the password. */
export function describeMail(settings: SmtpSettings | null): MailInfo {
  if (settings === null) return NO_MAIL;
  try {
    const { parsed, fromAddress } = checkSmtpSettings(settings);
    return { configured: true, server: `${parsed.host}:${parsed.port}`, from: fromAddress };
  } catch {
    return { configured: true, server: null, from: settings.from ?? null };
  }
}
