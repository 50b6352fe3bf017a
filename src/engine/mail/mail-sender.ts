/** One customer mail ready to go out. */
export interface OutgoingMail {
  /** Display name of the sender (the restaurant). */
  fromName: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * Delivers mail; the jobs runner calls it outside any transaction and retries with backoff when
 * it throws, so a slow or failing server never holds up the kitchen.
 */
export interface MailSender {
  /** For logs and status screens, without secrets, e.g. "smtp://mail.example.com:587". */
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}
