import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { MailSender, OutgoingMail } from './mail-sender.ts';

export interface SmtpSettings {
  /** `smtp://user:pass@host:port` (STARTTLS when the server offers it) or `smtps://...` (TLS from the start). */
  url: string;
  /** The sender's address; defaults to the URL's user when it is an address, else `no-reply@<host>`. */
  from?: string;
}

export interface ParsedSmtpUrl {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
}

/** A readable reason when the URL cannot be used, for the CLI and the app's settings. */
class SmtpSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmtpSettingsError';
  }
}

const ADDRESS = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

export function parseSmtpUrl(text: string): ParsedSmtpUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SmtpSettingsError(`SMTP URL is not a URL: expected smtp://user:pass@host:port`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new SmtpSettingsError(`SMTP URL must start with smtp:// or smtps://, got ${url.protocol}//`);
  }
  if (url.hostname.length === 0) throw new SmtpSettingsError('SMTP URL has no host');
  const secure = url.protocol === 'smtps:';
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const user = url.username === '' ? null : decodeURIComponent(url.username);
  const password = url.password === '' ? null : decodeURIComponent(url.password);
  if (password !== null && user === null) throw new SmtpSettingsError('SMTP URL has a password but no user');
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, secure, user, password };
}

function describeSmtp(parsed: ParsedSmtpUrl): string {
  return `${parsed.secure ? 'smtps' : 'smtp'}://${parsed.host}:${parsed.port}`;
}

/** Reads and checks the settings; throws SmtpSettingsError, saying why, when they cannot be used. */
export function checkSmtpSettings(settings: SmtpSettings): { parsed: ParsedSmtpUrl; fromAddress: string } {
  const parsed = parseSmtpUrl(settings.url);
  const fromAddress = settings.from ?? (parsed.user && ADDRESS.test(parsed.user) ? parsed.user : `no-reply@${parsed.host}`);
  if (!ADDRESS.test(fromAddress)) throw new SmtpSettingsError(`the sender address ${JSON.stringify(fromAddress)} is not an email address`);
  return { parsed, fromAddress };
}

/** Checks the settings and builds a sender over SMTP (nodemailer); throws SmtpSettingsError when unusable. */
export function createSmtpSender(settings: SmtpSettings): MailSender {
  const { parsed, fromAddress } = checkSmtpSettings(settings);
  const options: SMTPTransport.Options = {
    host: parsed.host,
    port: parsed.port,
    secure: parsed.secure,
    ...(parsed.user !== null ? { auth: { user: parsed.user, pass: parsed.password ?? '' } } : {}),
    // A dead server must fail an attempt quickly; the outbox retries it later.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    dnsTimeout: 10_000,
  };
  // nodemailer is loaded with the first mail: an engine that sends none does not carry it (about
  // 3 MB of the serving process's heap; docs/performance.md, "Row 4's memory").
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo, SMTPTransport.Options>> | null = null;
  const opened = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
  return {
    description: describeSmtp(parsed),
    async send(mail: OutgoingMail): Promise<void> {
      await (await opened()).sendMail({
        from: { name: mail.fromName, address: fromAddress },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
    },
    close(): void {
      void transport?.then((opened) => opened.close());
    },
  };
}
