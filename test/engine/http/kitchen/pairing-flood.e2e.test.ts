// Issue 29: a flood cannot lock the kitchen out of pairing. Keyless requests from 30,000 addresses
// (past the 20,000 pairing buckets kept, so new addresses share one bucket, which the flood drains)
// leave a fresh QR code pairing at once from a tablet never seen: a URL's 256-bit secret is not
// limited per address. About a minute of requests: in the e2e tier. (A GET that pairs nothing
// spends nothing: pairing-guard.test.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../../src/engine/demo/seed-demo.ts';
import { createPairingCode, type PairingCode } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../../../support/engine-under-test.ts';
import { postJson, rawRequest } from './raw-request.ts';

const FLOOD_ADDRESSES = 30_000;
/** Requests on their way at once: a flood, not a queue. */
const PARALLEL = 32;

describe('pairing under a flood (served engine, 30,000 source addresses)', () => {
  let dir: string;
  let clock: ManualClock;
  let server: EngineServer;
  let demo: DemoRestaurant[];
  let port: number;
  let nextAddress = 2;
  /** A loopback source address never used before in this test (127.0.0.2 onwards). */
  const freshAddress = () => {
    const n = nextAddress++;
    return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-pairing-flood-'));
    clock = new ManualClock(DEMO_NOW);
    server = await startEngineServer({ database: join(dir, 'engine.db'), clock, rateLimits: GENEROUS_LIMITS, kitchen: {} });
    port = server.port;
    demo = await seedDemo(server.engine, server.providers.payments);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const offer = async (): Promise<PairingCode> => await createPairingCode(server.engine, { restaurantId: demo[0]!.id, origin: server.origin });
  const pathOf = (o: PairingCode) => {
    const url = new URL(o.pairing_url);
    return `${url.pathname}${url.search}`;
  };

  test(`a QR code pairs right after keyless requests from ${FLOOD_ADDRESSES.toLocaleString('en')} addresses`, { timeout: 600_000 }, async () => {
    const statuses = new Map<number, number>();
    let sent = 0;
    const worker = async () => {
      while (sent < FLOOD_ADDRESSES) {
        sent++;
        // No code, no secret: the keyless request a flood sends, each from an address of its own.
        const answer = await postJson(port, '/kitchen/pair', {}, { localAddress: freshAddress() });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    assert.ok((statuses.get(429) ?? 0) > 0, `the flood reached the shared bucket and drained it: ${JSON.stringify([...statuses])}`);
    // Typed codes from a new address share the drained bucket: the limit still holds for what can be guessed.
    assert.equal((await postJson(port, '/kitchen/pair', { code: (await offer()).code }, { localAddress: freshAddress() })).status, 429);

    const qr = await offer();
    const paired = await rawRequest(port, { method: 'GET', path: pathOf(qr), localAddress: freshAddress() });
    assert.equal(paired.status, 303);
    assert.equal(paired.headers.location, './', 'paired, landing on the board');
    assert.match(String(paired.headers['set-cookie']), /^comanda_device=/);
  });
});
