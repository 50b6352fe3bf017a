// A tablet tells the engine which station its board shows (issue 22, fallback printing per
// station): its live stream opens with `?stations=` and is reopened when the cook picks another
// station in "Esta pantalla". Headless Chromium over real HTTP; the engine's clock is moved by the
// test and the stream's heartbeats (real time) note it for the stations the tablet said.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { LiveStreamStats } from '../../../../src/engine/http/kitchen/live-stream.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { eventually } from '../../../support/eventually.ts';
import { startServedKitchen, type ServedKitchen } from './served-kitchen.ts';

describe('a tablet says which station it shows (Chromium, served engine)', () => {
  let k: ServedKitchen;
  let page: Page;
  let stats: () => LiveStreamStats;

  before(async () => {
    k = await startServedKitchen({ heartbeatMs: 100, kitchen: { observeLive: (s) => (stats = s) } });
    page = (await k.tablet({ width: 1280, height: 800 })).page;
  });
  after(async () => {
    await k?.close();
  });

  const presence = (stations: string[]) => k.server.engine.screenPresence.lastLive(R1.id, stations);
  /** Moves the engine's clock 5 s and waits for the tablet's heartbeat to note it for `stations`. */
  const liveAt = async (stations: string[]) => {
    k.clock.advance(5000);
    const now = k.clock.now();
    await eventually(() => presence(stations), `the tablet live for ${stations.join(',') || 'every station'} at the new time`, { until: (at) => at === now });
    return now;
  };
  const chooseStation = async (stationId: string) => {
    await page.locator('[data-testid="screen-menu"]').click();
    await page.locator('[data-testid="station"]').selectOption(stationId);
    await page.locator('[data-testid="menu-close"]').click();
  };

  test('expo counts for every station; picking the plancha reopens the stream for the plancha alone; back to expo, every station again', async () => {
    await page.goto(await k.pairingUrl());
    await page.locator('[data-testid="board"]').waitFor();
    await liveAt([]);

    const reopened = page.waitForResponse((r) => r.url().includes('/kitchen/live') && new URL(r.url()).searchParams.get('stations') === 'plancha');
    await chooseStation('plancha');
    await reopened;
    // The stream reopened for the plancha is the tablet's only one (the one for every station closed).
    await eventually(() => stats().open, 'the stream for every station closed', { until: (n) => n === 1 });
    const now = await liveAt(['plancha']);
    assert.ok(presence([])! < now, 'no longer a screen of every station');
    assert.ok(presence(['horno'])! < now, 'nor of the horno');
    // It stays so: heartbeats keep noting the plancha only.
    const later = await liveAt(['plancha']);
    assert.ok(presence(['horno'])! < later);

    await chooseStation('');
    const back = await liveAt([]);
    assert.equal(presence(['horno']), back, 'expo counts for the horno too');
  });
});
