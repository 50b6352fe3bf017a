// The promises' share tables (issue 33): a row's share is kept / ready, so a row with no order ready
// has none; its cell says so ("sin pedidos listos") instead of "— %". The engine's rows each count a
// ready order today, but the contract allows a null share, and the page must not print "— %" for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { informesText } from '../../src/renderer/src/reports/informes-text.ts';
import { PromisePanel } from '../../src/renderer/src/reports/PromisePanel.tsx';
import type { KitchenReport } from '../../src/shared/schemas/kitchen-report.ts';

const report = {
  from: '2026-11-21',
  to: '2026-11-21',
  promises: {
    orders: 3,
    ready: 2,
    not_ready: 1,
    kept: 1,
    asked_quantile: 0.9,
    kept_share: 0.5,
    lateness_p50_seconds: 30,
    lateness_p90_seconds: 90,
    histogram: [{ from_minutes: null, to_minutes: 0, orders: 1 }, { from_minutes: 0, to_minutes: null, orders: 1 }],
    by_channel: [
      { key: 'pos', ready: 2, kept: 1, share: 0.5 },
      { key: 'web', ready: 0, kept: 0, share: null },
    ],
    by_hour: [{ key: '20', ready: 2, kept: 1, share: 0.5 }],
    by_station: [{ key: 'plancha', ready: 2, kept: 1, share: 0.5 }],
  },
} as unknown as KitchenReport;

test('a share row with no order ready says "sin pedidos listos", never "— %"; a share is a whole percentage', () => {
  const html = renderToStaticMarkup(createElement(PromisePanel, { report, text: informesText('es'), language: 'es', stationName: (id: string) => id }));
  const shares = [...html.matchAll(/data-testid="share">(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
  assert.deepEqual(shares, ['50 %', 'sin pedidos listos', '50 %', '50 %']);
  assert.doesNotMatch(html, /—\s*%/);
  const english = renderToStaticMarkup(createElement(PromisePanel, { report, text: informesText('en'), language: 'en', stationName: (id: string) => id }));
  assert.match(english, /no orders ready/);
});
