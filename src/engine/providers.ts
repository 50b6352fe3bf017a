import type { Engine } from './engine.ts';
import { defaultCouriers, type CourierRegistry } from './couriers/courier-registry.ts';
import type { MailSender } from './mail/mail-sender.ts';
import { configuredPaymentProviders } from './payments/configured-providers.ts';
import type { PaymentProviders } from './payments/payment-provider.ts';
import { firstPaymentCredentials, type PaymentCredentialsSource } from './payments/payment-credentials-source.ts';
import { storedPaymentCredentials } from './services/payments/payment-credentials.ts';
import { sandboxSimulator } from './payments/sandbox-simulator.ts';
import { networkPrinter } from './printers/network-printer.ts';
import type { PrinterPort } from './printers/printer-port.ts';

/**
 * The outside parties an engine talks to, assembled once where the app starts (src/host:
 * start-engine-server, and so start-replica-server and the Electron main's engine host) and handed
 * to what calls them: the HTTP door (payment sessions, delivery quotes), the commands (a `listo`
 * writes the courier's dispatch intent), the jobs runner (courier, payment, mail and print intents)
 * and the desktop's "Imprimir prueba". Nothing here lives on Engine: the engine is the database, its
 * transactions, the clock and the notifier.
 */
export interface Providers {
  payments: PaymentProviders;
  /** Courier adapters by provider name: quotes and dispatches use the same ones. */
  couriers: CourierRegistry;
  /**
   * Where customer mails go at start; null keeps them queued (and visible) until the app's settings
   * give a server, which the jobs runner then swaps in at run time (JobsRunner.setMailSender).
   */
  mail: MailSender | null;
  /** How tickets reach the restaurants' kitchen printers (each printer's address is in the database). */
  printers: PrinterPort;
}

/** What a host (or a test) chooses; anything left out gets the default. */
export interface ProviderChoices {
  /** Per world; the test world defaults to the sandbox simulator, the live one to none. */
  payments?: Partial<PaymentProviders>;
  /** Restaurants' credentials kept by the host (the desktop's safeStorage), asked before the database's. */
  paymentCredentials?: PaymentCredentialsSource;
  /** The simulated courier ("simulado") by default. */
  couriers?: CourierRegistry;
  mail?: MailSender | null;
  /** The network printer (raw TCP to each printer's host and port) by default. */
  printers?: PrinterPort;
}

/**
 * The engine's providers: a restaurant's own payment provider (its credentials, read from the
 * database when asked, so a change by the CLI is seen by the next order), else the world's default;
 * the couriers; the mail sender; the printer port.
 */
export function assembleProviders(engine: Engine, choices: ProviderChoices = {}): Providers {
  const inDatabase = storedPaymentCredentials(engine);
  const credentials = choices.paymentCredentials ? firstPaymentCredentials(choices.paymentCredentials, inDatabase) : inDatabase;
  return {
    payments: {
      live: choices.payments?.live ?? null,
      test: choices.payments?.test ?? sandboxSimulator,
      forRestaurant: choices.payments?.forRestaurant ?? configuredPaymentProviders(credentials),
      credentials: choices.payments?.credentials ?? credentials,
    },
    couriers: choices.couriers ?? defaultCouriers(),
    mail: choices.mail ?? null,
    printers: choices.printers ?? networkPrinter,
  };
}
