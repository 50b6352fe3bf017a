// A real engine on a real port and SQLite file, like test/support/engine-under-test.ts, with the
// knobs the jobs' tests need: couriers, SMTP, the printer port, and a restart on the same database and clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/engine/clock.ts';
import type { CourierRegistry } from '../../../src/engine/couriers/courier-registry.ts';
import { seedDemo, type DemoRestaurant } from '../../../src/engine/demo/seed-demo.ts';
import type { SmtpSettings } from '../../../src/engine/mail/smtp-sender.ts';
import type { PaymentProvider, PaymentProviders } from '../../../src/engine/payments/payment-provider.ts';
import type { PaymentCredentialsSource } from '../../../src/engine/payments/payment-credentials-source.ts';
import type { PrinterPort } from '../../../src/engine/printers/printer-port.ts';
import type { FastifyBaseLogger } from 'fastify';
import { startEngineServer, type EngineServer } from '../../../src/host/start-engine-server.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS, type CallOptions, type CallResult } from '../../support/engine-under-test.ts';

export interface TestEngineOptions {
  now?: string;
  couriers?: CourierRegistry;
  smtp?: SmtpSettings;
  payments?: PaymentProviders;
  /** Payment credentials a host keeps (the desktop app's key storage), asked before the database. */
  paymentCredentials?: PaymentCredentialsSource;
  /** The HTTP API's and the jobs' log (default: none). */
  logger?: FastifyBaseLogger;
  paymentTimeoutMs?: number;
  courierTimeoutMs?: number;
  printTimeoutMs?: number;
  /** How tickets reach the printers (the host's choice; the network printer by default). */
  printers?: PrinterPort;
}

export interface TestEngine {
  server: EngineServer;
  clock: ManualClock;
  readonly baseUrl: string;
  demo: DemoRestaurant[];
  dbPath: string;
  /** fetch against baseUrl with a key (default: restaurant 1's live write key), JSON in and out. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** Closes the server and starts a new one on the same database and clock (keys stay valid). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-jobs-'));
  const dbPath = join(dir, 'engine.db');
  const clock = new ManualClock(options.now ?? DEMO_NOW);
  const start = async () =>
    await startEngineServer({
      database: dbPath,
      clock,
      rateLimits: GENEROUS_LIMITS,
      ...(options.couriers ? { couriers: options.couriers } : {}),
      ...(options.smtp ? { smtp: options.smtp } : {}),
      ...(options.payments ? { payments: options.payments } : {}),
      ...(options.paymentCredentials ? { paymentCredentials: options.paymentCredentials } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.paymentTimeoutMs !== undefined ? { paymentTimeoutMs: options.paymentTimeoutMs } : {}),
      ...(options.courierTimeoutMs !== undefined ? { courierTimeoutMs: options.courierTimeoutMs } : {}),
      ...(options.printTimeoutMs !== undefined ? { printTimeoutMs: options.printTimeoutMs } : {}),
      ...(options.printers ? { printers: options.printers } : {}),
      // Quick real-time ticks, so queued mail goes out at once.
      jobsIntervalMs: 50,
    });
  let server = await start();
  const demo = await seedDemo(server.engine, server.providers.payments);
  const t: TestEngine = {
    server,
    clock,
    get baseUrl() {
      return t.server.baseUrl;
    },
    demo,
    dbPath,
    call: (method, path, callOptions) => callApi(t.server.baseUrl, demo[0]!.keys.live_write, method, path, callOptions),
    async restart() {
      await t.server.close();
      server = await start();
      t.server = server;
    },
    async stop() {
      await t.server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * A stand-in for a production payment provider: asked after the order's commit like any provider,
 * its "webhook" is services/payments/confirm-payment.ts, called by the test.
 */
export const fakeLiveProvider: PaymentProvider = {
  name: 'fake-live',
  async openSession(request) {
    return { payment_url: `https://pagos.example/checkout/${request.session_id}` };
  },
};
