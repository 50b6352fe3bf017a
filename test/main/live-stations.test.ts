// The desktop window says which station its board shows on `live:stations` (issue 22, fallback
// printing per station): main checks the sender (the app's own window and page only) and what was
// said (the restaurant's station ids, as a tablet's ?stations=), and the window's live feed then
// notes only those stations live. Main's listener as src/main/index.ts registers it, under the
// stand-in electron module, on a real engine; the engine's clock is moved by the test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import { startLiveFeed, type LiveFeed } from '../../src/engine/screen/live-feed.ts';
import { STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { screenStations } from '../../src/engine/services/kitchen/screen-stations.ts';
import { LIVE_STATIONS_CHANNEL } from '../../src/shared/screen-contract/contract.ts';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import type * as StandInElectron from './support/stand-in-electron.ts';

const standIn = new URL('./support/stand-in-electron.ts', import.meta.url).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standIn, format: 'module', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
const { registerLiveStations } = await import('../../src/main/ipc-main.ts');
const { ipcMain, BrowserWindow } = (await import(standIn)) as typeof StandInElectron;

describe('the desktop window says its station on live:stations', () => {
  let engine: EngineUnderTest;
  let feed: LiveFeed;
  let unregister: () => void;
  const rendererUrl = pathToFileURL('/opt/comanda/out/renderer/index.html').href;
  const window = new BrowserWindow({});
  const logged: unknown[] = [];
  const presence = (stations: string[]) => engine.server.engine.screenPresence.lastLive(R1.id, stations);
  /** The stations said last, once the window's feed shows them (or they were refused). */
  let applied: Promise<void> = Promise.resolve();
  const say = async (said: unknown, senderUrl = rendererUrl, sender: unknown = window.webContents) => {
    applied = Promise.resolve();
    ipcMain.emit(LIVE_STATIONS_CHANNEL, { sender, senderFrame: { url: senderUrl, parent: null } }, said);
    await applied.catch(() => {});
  };

  before(async () => {
    engine = await startEngineUnderTest();
    feed = await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: () => {}, connectionStatus: () => STANDALONE_STATUS, heartbeatMs: 60_000 });
    unregister = registerLiveStations(
      (said) => (applied = (async () => feed.showStations(await screenStations(engine.server.engine, R1.id, said)))()),
      () => ({ contents: window.webContents as never, rendererUrl }),
      (error) => logged.push(error),
    );
  });
  after(async () => {
    unregister?.();
    feed?.stop();
    await engine?.stop();
  });

  test('the window\'s plancha: its heartbeats count for the plancha alone; back to expo, for every station', async () => {
    const opened = presence([]);
    assert.notEqual(opened, null, 'a window says nothing at first: every station');
    await say(['plancha']);
    engine.clock.advance(5000);
    await feed.heartbeat();
    const now = engine.clock.now();
    assert.equal(presence(['plancha']), now);
    assert.equal(presence(['horno']), opened, 'the horno saw no screen since');
    assert.equal(presence([]), opened);

    await say(null);
    engine.clock.advance(5000);
    await feed.heartbeat();
    assert.equal(presence(['horno']), engine.clock.now(), 'expo counts for the horno');
    assert.deepEqual(logged, []);
  });

  test('another sender is ignored and logged; a malformed list is refused and logged, the feed unchanged', async () => {
    await say(['plancha']);
    engine.clock.advance(5000);
    await feed.heartbeat();
    const plancha = engine.clock.now();
    await say(null, 'https://example.com/');
    await say(null, rendererUrl, {});
    await say('Horno!');
    await say([1, 2]);
    engine.clock.advance(5000);
    await feed.heartbeat();
    assert.equal(presence(['plancha']), engine.clock.now(), 'still the plancha');
    assert.equal(presence(['horno']) !== null && presence(['horno'])! <= plancha, true, 'not every station');
    assert.equal(logged.length, 4);
    assert.match(String(logged[0]), /untrusted sender/);
    assert.match(String(logged[2]), /station id/);
  });
});
