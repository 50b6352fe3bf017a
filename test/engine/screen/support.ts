import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScreenHandlers } from '../../../src/main/channel-handlers.ts';
import { callScreenHandler, type ScreenHandlers } from '../../../src/engine/screen/dispatch.ts';
import { memoryPlatformKey, memorySettings } from '../../main/support/memory-ports.ts';
import { STANDALONE_STATUS } from '../../../src/engine/screen/live-hub.ts';
import type { ScreenChannel, ScreenRequest, ScreenResponse } from '../../../src/shared/screen-contract/contract.ts';
import type { EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';

/** The backup folders of this process's handlers, under one temporary root removed when the process exits (a test file calls `handlersFor` many times and has no teardown for them). */
let backupRoot: string | null = null;
function newBackupFolder(): string {
  if (!backupRoot) {
    const root = mkdtempSync(join(tmpdir(), 'comanda-backups-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    backupRoot = root;
  }
  return mkdtempSync(join(backupRoot, 'handlers-'));
}

export function handlersFor(engine: EngineUnderTest, options: { secureStorage?: boolean; restaurantId?: string } = {}) {
  const settings = memorySettings();
  const platformKey = memoryPlatformKey({ available: options.secureStorage ?? true });
  const errors: unknown[] = [];
  const backupFolder = newBackupFolder();
  const handlers: ScreenHandlers = createScreenHandlers({
    engine: engine.server.engine,
    commands: engine.server.commands,
    printers: engine.server.providers.printers,
    restaurantId: options.restaurantId ?? R1.id,
    settings,
    platformKey,
    bootSettings: settings.read(),
    log: (error) => errors.push(error),
    host: {
      appInfo: () => ({ version: 'test', restaurant: { id: R1.id, name: 'x' }, restaurants: [], api_base_url: engine.baseUrl, lan_urls: [], data_dir: null }),
      connectionStatus: () => STANDALONE_STATUS,
      syncStatus: async () => null,
      backupFolder: () => backupFolder,
    },
  });
  /** Calls a channel and returns its value, failing the test on a refusal. */
  const ok = async <C extends ScreenChannel>(channel: C, request: ScreenRequest<C>): Promise<ScreenResponse<C>> => {
    const result = await callScreenHandler(handlers, channel, request);
    if (!result.ok) throw new Error(`${channel} refused: ${result.error.code} ${result.error.message}`);
    return result.value as ScreenResponse<C>;
  };
  return { handlers, settings, platformKey, errors, ok, backupFolder };
}

export async function placeOrder(engine: EngineUnderTest, overrides: Record<string, unknown> = {}, key = engine.demo[0]!.keys.live_write): Promise<any> {
  const response = await engine.call('POST', '/orders', {
    key,
    body: {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Camila Rojas' },
      items: [{ product_id: R1.products.empanadaQueso, quantity: 2 }],
      ...overrides,
    },
  });
  if (response.status !== 201) throw new Error(`order not created: ${response.status} ${response.text}`);
  return response.body;
}
