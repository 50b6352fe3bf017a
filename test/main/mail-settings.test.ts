import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createScreenHandlers } from '../../src/main/channel-handlers.ts';
import { callScreenHandler } from '../../src/engine/screen/dispatch.ts';
import { memoryMail, memoryPlatformKey, memorySettings } from './support/memory-ports.ts';
import { STANDALONE_STATUS } from '../../src/engine/screen/live-hub.ts';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(() => engine.stop());

test('the SMTP server is set from the app: checked, kept like a secret, shown without its password, used by the jobs', async () => {
  const mail = memoryMail();
  const settings = memorySettings();
  const handlers = createScreenHandlers({
    engine: engine.server.engine,
    commands: engine.server.commands,
    printers: engine.server.providers.printers,
    restaurantId: R1.id,
    settings,
    platformKey: memoryPlatformKey(),
    mail,
    bootSettings: settings.read(),
    host: {
      appInfo: () => {
        throw new Error('unused');
      },
      connectionStatus: () => STANDALONE_STATUS,
      syncStatus: async () => null,
      backupFolder: () => null,
      configureMail: (smtp) => engine.server.configureMail(smtp),
    },
  });

  const bad = await callScreenHandler(handlers, 'mail:set-smtp', { url: 'http://not-smtp.example', from: null });
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    assert.equal(bad.error.code, 'invalid_request');
    assert.match(bad.error.message, /^SMTP: /);
  }
  assert.equal(engine.server.jobs.mailSender, null);

  const good = await callScreenHandler(handlers, 'mail:set-smtp', { url: 'smtp://cocina:s3cr3t@mail.example.cl:587', from: 'pedidos@picada.cl' });
  assert.equal(good.ok, true);
  if (good.ok) {
    assert.deepEqual(good.value.mail, { configured: true, server: 'mail.example.cl:587', from: 'pedidos@picada.cl' });
    assert.equal(JSON.stringify(good.value).includes('s3cr3t'), false, 'the password never reaches the screen');
  }
  assert.deepEqual(mail.secret(), { url: 'smtp://cocina:s3cr3t@mail.example.cl:587', from: 'pedidos@picada.cl' });
  assert.notEqual(engine.server.jobs.mailSender, null, 'customer mails now go through that server');

  const cleared = await callScreenHandler(handlers, 'mail:clear-smtp', {});
  assert.equal(cleared.ok, true);
  if (cleared.ok) assert.deepEqual(cleared.value.mail, { configured: false, server: null, from: null });
  assert.equal(engine.server.jobs.mailSender, null);
  assert.equal(mail.secret(), null);
});

test('without protected storage the SMTP password is refused, never kept in clear', async () => {
  const handlers = createScreenHandlers({
    engine: engine.server.engine,
    commands: engine.server.commands,
    printers: engine.server.providers.printers,
    restaurantId: R1.id,
    settings: memorySettings(),
    platformKey: memoryPlatformKey({ available: false }),
    mail: memoryMail({ available: false }),
    host: { appInfo: () => { throw new Error('unused'); }, connectionStatus: () => STANDALONE_STATUS, syncStatus: async () => null, backupFolder: () => null },
  });
  const refused = await callScreenHandler(handlers, 'mail:set-smtp', { url: 'smtp://u:p@mail.example.cl:587', from: null });
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.equal(refused.error.code, 'secure_storage_unavailable');
});
