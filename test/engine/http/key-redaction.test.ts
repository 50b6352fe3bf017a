import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ManualClock } from '../../../src/engine/clock.ts';
import { seedDemo } from '../../../src/engine/demo/seed-demo.ts';
import { redactApiKeys } from '../../../src/engine/domain/api-key-redaction.ts';
import { createPairingCode } from '../../../src/engine/services/kitchen/kitchen-devices.ts';
import { startEngineServer, type EngineServer } from '../../../src/host/start-engine-server.ts';
import { DEMO_NOW, GENEROUS_LIMITS } from '../../support/engine-under-test.ts';

const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

/** Every way we know a key reaches a URL or a header, given its mode and secret. */
function spellings(mode: 'live' | 'test', secret: string): Record<string, string> {
  return {
    plain: `cm_${mode}_${secret}`,
    'plus separators': `cm+${mode}+${secret}`,
    'encoded letter': `c%6D_${mode}_${secret}`,
    'encoded underscores': `cm%5F${mode}%5F${secret}`,
    'lowercase hex': `cm%5f${mode}%5f${secret}`,
    'double-encoded': `cm%255F${mode}%255F${secret}`,
    'triple-encoded': `cm%25255F${mode}%25255F${secret}`,
    'encoded spaces': `cm%20${mode}%20${secret}`,
    'encoded plus': `cm%2B${mode}%2B${secret}`,
    'upper case prefix': `CM_${mode.toUpperCase()}_${secret}`,
    'mixed case': `Cm_${mode[0]!.toUpperCase()}${mode.slice(1)}_${secret}`,
    'every character encoded': encodeAll(`cm_${mode}_${secret}`),
    'double-encoded everything': encodeAll(`cm_${mode}_${secret}`).replaceAll('%', '%25'),
    'IIS unicode escape': `c%u006D_${mode}_${secret}`,
    'hyphens': `cm-${mode}-${secret}`,
    'secret partly encoded': `cm_${mode}_${secret.slice(0, 10)}${encodeAll(secret.slice(10, 14))}${secret.slice(14)}`,
  };
}

/** Copy-paste debris (issue 19): invisible, control and fullwidth characters before, inside or after the prefix and in the secret. */
function debris(mode: 'live' | 'test', secret: string): Record<string, string> {
  return {
    'zero-width space before': `%E2%80%8Bcm_${mode}_${secret}`,
    'zero-width space inside the prefix': `cm%E2%80%8B_${mode}_${secret}`,
    'zero-width space after the prefix': `cm_${mode}_%E2%80%8B${secret}`,
    'zero-width joiner in the secret': `cm_${mode}_${secret.slice(0, 16)}%E2%80%8D${secret.slice(16)}`,
    'NUL inside the prefix': `cm%00_${mode}_${secret}`,
    'NUL in the secret': `cm_${mode}_${secret.slice(0, 10)}%00${secret.slice(10)}`,
    'fullwidth underscore': `cm%EF%BC%BF${mode}%EF%BC%BF${secret}`,
    'fullwidth letters': `%EF%BD%83%EF%BD%8D_${mode}_${secret}`,
    'line break in the secret': `cm_${mode}_${secret.slice(0, 22)}%0a${secret.slice(22)}`,
    'CRLF in the secret': `cm_${mode}_${secret.slice(0, 11)}%0D%0A${secret.slice(11)}`,
    'soft hyphen and BOM': `cm%C2%AD_${mode}_%EF%BB%BF${secret}`,
    'double-encoded zero-width space': `cm%25E2%2580%258B_${mode}_${secret}`,
  };
}

/** The debris as it reaches a log once decoded: the text itself, with the invisible characters in it. */
const decodedDebris = (mode: 'live' | 'test', secret: string) => Object.entries(debris(mode, secret)).map(([name, spelled]) => [name, decodeURIComponent(spelled.replaceAll('%25', '%'))] as const);

describe('API keys never reach a log or an error body, in any spelling', () => {
  const lines: string[] = [];
  let server: EngineServer;
  let dir: string;
  let liveKey: string;
  let testKey: string;
  let restaurantId: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-redaction-'));
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    server = await startEngineServer({ database: join(dir, 'engine.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS, logger, kitchen: {} });
    const demo = await seedDemo(server.engine, server.providers.payments);
    restaurantId = demo[0]!.id;
    liveKey = demo[0]!.keys.live_write;
    testKey = demo[0]!.keys.test_read;
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A raw request (paths and headers exactly as written), answering status and body text. */
  const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  test('the redaction finds each spelling and keeps the text around it', () => {
    const secret = 'AbCdEf0123456789AbCdEf0123456789';
    for (const [name, spelled] of Object.entries(spellings('live', secret))) {
      const redacted = redactApiKeys(`/v1/orders?token=${spelled}&x=1`);
      assert.equal(redacted, '/v1/orders?token=cm_live_[redacted]&x=1', name);
    }
    assert.equal(redactApiKeys('no such endpoint: GET /v1/pedidos'), 'no such endpoint: GET /v1/pedidos');
    assert.equal(redactApiKeys('Bearer cm_test_' + secret), 'Bearer cm_test_[redacted]');
  });

  test('keys with zero-width, NUL, fullwidth and line-break debris are found, encoded or not, and the text around them kept', () => {
    const secret = 'AbCdEf0123456789AbCdEf0123456789';
    for (const [name, spelled] of Object.entries(debris('live', secret))) {
      const redacted = redactApiKeys(`/v1/orders?token=${spelled}&x=1`);
      // Debris before the key may stay (it is no secret); nothing of the key does.
      assert.match(redacted, /^\/v1\/orders\?token=(%E2%80%8B)?cm_live_\[redacted\]&x=1$/, `${name}: ${redacted}`);
    }
    for (const [name, text] of decodedDebris('test', secret)) {
      const redacted = redactApiKeys(`key: ${text} (pasted)`);
      assert.ok(!redacted.includes(secret.slice(0, 8)) && !redacted.includes(secret.slice(-8)), `${name}: ${JSON.stringify(redacted)}`);
      assert.match(redacted, /^key: .*cm_test_\[redacted\].* \(pasted\)$/s, name);
    }
    // A key wrapped over two lines of a message, as a terminal or a mail client does.
    assert.equal(redactApiKeys(`cm_live_${secret.slice(0, 20)}\n${secret.slice(20)} end`), 'cm_live_[redacted] end');
    // Ordinary text with accents and line breaks is left alone.
    assert.equal(redactApiKeys('Señora Muñoz\ncódigo de cocina'), 'Señora Muñoz\ncódigo de cocina');
  });

  test('pairing codes and secrets, admin tokens and device tokens are masked too', () => {
    const secret = 'cmpair_AbCdEf0123456789AbCdEf0123456789AbCdEf0';
    assert.equal(redactApiKeys('/kitchen/pair?code=837985'), '/kitchen/pair?code=[redacted]');
    assert.equal(redactApiKeys(`/kitchen/pair?secret=${secret}&x=1`), '/kitchen/pair?secret=[redacted]&x=1');
    assert.equal(redactApiKeys(`open ${secret} on the tablet`), 'open cmpair_[redacted] on the tablet');
    assert.equal(redactApiKeys(`cmpair%E2%80%8B_${secret.slice(7)}`), 'cmpair_[redacted]');
    assert.equal(redactApiKeys('cookie: comanda_device=AbCdEf0123456789AbCdEf0123456789AbCdEf01234; x=1'), 'cookie: comanda_device=[redacted]; x=1');
  });

  test('every spelling, in a path, a query value, a query name or a header, is absent from logs and bodies', async () => {
    const bodies: string[] = [];
    for (const [mode, key] of [['live', liveKey], ['test', testKey]] as const) {
      const secret = key.slice(`cm_${mode}_`.length);
      for (const spelled of Object.values(spellings(mode, secret))) {
        const answers = [
          await raw('GET', `/v1/${spelled}`),
          await raw('QUERY', `/v1/nope/${spelled}`),
          await raw('GET', `/v1/orders?token=${spelled}`, { authorization: `Bearer ${liveKey}` }),
          await raw('GET', `/v1/orders?${spelled}=1`, { authorization: `Bearer ${liveKey}` }),
          await raw('GET', `/v1/orders/${spelled}`, { authorization: `Bearer ${liveKey}` }),
          await raw('GET', `/v1/orders/${spelled}%ZZ`, { authorization: `Bearer ${liveKey}` }),
          await raw('GET', '/v1/menu', { authorization: `Bearer ${spelled}`, 'x-api-key': spelled, referer: `https://x.example/?k=${spelled}` }),
          await raw('POST', `/v1/orders?api_key=${spelled}`, { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json', 'idempotency-key': spelled }, `{"customer":{"name":"${spelled}"}`),
          await raw('GET', `/v1/menu?location_id=${spelled}`, { authorization: `Bearer ${liveKey}` }),
        ];
        for (const answer of answers) bodies.push(answer.text);
      }
      for (const spelled of Object.values(debris(mode, secret))) {
        bodies.push((await raw('GET', `/v1/${spelled}`)).text);
        bodies.push((await raw('GET', `/v1/orders?token=${spelled}`, { authorization: `Bearer ${liveKey}` })).text);
        bodies.push((await raw('GET', `/v1/orders/${spelled}`, { authorization: `Bearer ${liveKey}` })).text);
      }
    }
    // Pairing codes and secrets in a URL (a tablet opening its pairing URL, a guesser typing codes).
    const offer = await createPairingCode(server.engine, { restaurantId: restaurantId, origin: server.origin });
    const pairingSecret = new URL(offer.pairing_url).searchParams.get('secret')!;
    bodies.push((await raw('GET', `/kitchen/pair?code=${offer.code}`)).text);
    bodies.push((await raw('GET', `/kitchen/nope?secret=${pairingSecret}`)).text);
    bodies.push((await raw('GET', `/kitchen/pair?secret=${pairingSecret}`)).text);
    // The engine logged at trace level, and answered every request.
    assert.ok(lines.some((line) => line.includes('"incoming request"')));
    assert.ok(lines.some((line) => line.includes('[redacted]')), 'what was redacted is marked');
    assert.ok(bodies.some((body) => body.includes('no such endpoint: GET /v1/cm_live_[redacted]')), 'a 404 names the method and the masked path');
    const log = lines.join('\n');
    assert.ok(!log.includes(pairingSecret.slice(7, 30)), 'a pairing secret found in the logs');
    assert.ok(!log.includes(`code=${offer.code}`), 'a pairing code found in the logs');
    assert.ok(log.includes('/kitchen/pair?code=[redacted]'));
    for (const [mode, key] of [['live', liveKey], ['test', testKey]] as const) {
      const secret = key.slice(`cm_${mode}_`.length);
      // The lookup part alone finds the key's row: it must not appear either.
      const lookup = secret.slice(0, 12);
      for (const [where, text] of [['logs', log], ['bodies', bodies.join('\n')]] as const) {
        assert.ok(!text.includes(lookup), `${mode} key's lookup part found in ${where}`);
        for (const [name, spelled] of Object.entries(spellings(mode, secret))) {
          assert.ok(!text.includes(spelled), `${mode} key spelled "${name}" found in ${where}`);
        }
        // With debris, the secret's halves around it must not show either.
        for (const [name, spelled] of Object.entries(debris(mode, secret))) {
          assert.ok(!text.includes(spelled), `${mode} key with "${name}" found in ${where}`);
        }
        for (const part of [secret.slice(0, 10), secret.slice(11, 22), secret.slice(22)]) assert.ok(!text.includes(part), `part of the ${mode} key found in ${where}`);
      }
    }
  });
});
