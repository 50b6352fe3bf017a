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
import { startEngineServer, type EngineServer } from '../../../src/engine/start-engine-server.ts';
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

describe('API keys never reach a log or an error body, in any spelling', () => {
  const lines: string[] = [];
  let server: EngineServer;
  let dir: string;
  let liveKey: string;
  let testKey: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-redaction-'));
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    server = await startEngineServer({ database: join(dir, 'engine.db'), clock: new ManualClock(DEMO_NOW), rateLimits: GENEROUS_LIMITS, logger });
    const demo = seedDemo(server.engine, server.payments);
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
    }
    // The engine logged at trace level, and answered every request.
    assert.ok(lines.some((line) => line.includes('"incoming request"')));
    assert.ok(lines.some((line) => line.includes('[redacted]')), 'what was redacted is marked');
    assert.ok(bodies.some((body) => body.includes('no such endpoint: GET /v1/cm_live_[redacted]')), 'a 404 names the method and the masked path');
    const log = lines.join('\n');
    for (const [mode, key] of [['live', liveKey], ['test', testKey]] as const) {
      const secret = key.slice(`cm_${mode}_`.length);
      // The lookup part alone finds the key's row: it must not appear either.
      const lookup = secret.slice(0, 12);
      for (const [where, text] of [['logs', log], ['bodies', bodies.join('\n')]] as const) {
        assert.ok(!text.includes(lookup), `${mode} key's lookup part found in ${where}`);
        for (const [name, spelled] of Object.entries(spellings(mode, secret))) {
          assert.ok(!text.includes(spelled), `${mode} key spelled "${name}" found in ${where}`);
        }
      }
    }
  });
});
