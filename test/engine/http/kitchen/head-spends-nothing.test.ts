// Issue 29: a HEAD request (a link preview, a prefetch, a scanner checking the URL) never spends a
// one-time link: the manager's admin link and a tablet's pairing URL both still work for the
// browser's GET that follows. Served engine, real port.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { seedDemo, type DemoRestaurant } from '../../../../src/engine/demo/seed-demo.ts';
import { createAdminSessions } from '../../../../src/engine/http/kitchen/admin-session.ts';
import { createPairingCode } from '../../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../../../support/engine-under-test.ts';
import { rawRequest } from './raw-request.ts';

describe('HEAD spends no one-time link', () => {
  let dir: string;
  let server: EngineServer;
  let demo: DemoRestaurant[];
  const clock = new ManualClock(DEMO_NOW);
  const sessions = createAdminSessions(() => clock.now());
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-head-'));
    server = await startEngineServer({ database: join(dir, 'engine.db'), clock, rateLimits: GENEROUS_LIMITS, kitchen: { admin: { sessions, current: () => null } } });
    demo = await seedDemo(server.engine, server.providers.payments);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const pathOf = (link: string) => {
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  };

  test('the admin link: HEAD twice, then the GET gets its session', async () => {
    const path = pathOf(sessions.issueLink(server.origin));
    for (let i = 0; i < 2; i++) assert.equal((await rawRequest(server.port, { method: 'HEAD', path })).status, 200);
    const got = await rawRequest(server.port, { method: 'GET', path });
    assert.equal(got.status, 303, got.text);
    assert.equal(got.headers.location, './');
    assert.match(String(got.headers['set-cookie']), /^comanda_admin=/);
    assert.equal((await rawRequest(server.port, { method: 'GET', path })).status, 403, 'then spent');
  });

  test('a pairing URL: HEAD, then the GET pairs', async () => {
    const path = pathOf((await createPairingCode(server.engine, { restaurantId: demo[0]!.id, origin: server.origin })).pairing_url);
    const head = await rawRequest(server.port, { method: 'HEAD', path });
    assert.equal(head.status, 200);
    assert.equal(head.headers['set-cookie'], undefined);
    const got = await rawRequest(server.port, { method: 'GET', path });
    assert.equal(got.headers.location, './');
    assert.match(String(got.headers['set-cookie']), /^comanda_device=/);
  });
});
