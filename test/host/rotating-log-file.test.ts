// Issue 29: comanda.log is rotated by size. 3,000 unauthenticated requests' worth of lines (about
// 450 bytes each, what the attack measured: 1.2–1.5 MB) leave the log under its limit, two older
// files beside it and nothing more; the newest line is in the log. The limit is a setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { DEFAULT_LOG_MAX_BYTES, logMaxBytes, MIN_LOG_MAX_BYTES, openRotatingLog } from '../../src/host/rotating-log-file.ts';

test('3,000 request lines: the log stays under its size, two older files kept, the newest line in the log', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-log-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'comanda.log');
  const maxBytes = 256 * 1024;
  const stream = openRotatingLog(file, maxBytes);
  const logger = pino({ level: 'info' }, stream);
  const padding = 'x'.repeat(300);
  for (let i = 0; i < 3000; i++) logger.info({ reqId: `req-${i}`, req: { method: 'GET', url: `/v1/menu?${padding}` }, res: { statusCode: 401 } }, 'request completed');
  stream.end();
  for (const f of [file, `${file}.1`, `${file}.2`]) assert.ok(statSync(f).size <= maxBytes, `${f}: ${statSync(f).size} bytes`);
  assert.equal(existsSync(`${file}.3`), false, 'no more than two older files');
  assert.equal((statSync(file).mode & 0o777).toString(8), '600');
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  assert.equal((JSON.parse(lines.at(-1)!) as { reqId: string }).reqId, 'req-2999');
  // Every line whole: a rotation happens between lines, never inside one.
  for (const line of lines) JSON.parse(line);
});

test('the limit: COMANDA_LOG_MAX_BYTES, 5 MiB by default, never below 64 KiB', () => {
  assert.equal(logMaxBytes({}), DEFAULT_LOG_MAX_BYTES);
  assert.equal(logMaxBytes({ COMANDA_LOG_MAX_BYTES: '1048576' }), 1024 * 1024);
  assert.equal(logMaxBytes({ COMANDA_LOG_MAX_BYTES: '10' }), MIN_LOG_MAX_BYTES);
  assert.equal(logMaxBytes({ COMANDA_LOG_MAX_BYTES: 'lots' }), DEFAULT_LOG_MAX_BYTES);
});
