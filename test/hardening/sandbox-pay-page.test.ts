// The payment simulator page (`/v1/sandbox/pay/{session_id}`) against hostile data: whatever the
// restaurant, location, product, option names and return_url hold, the page's markup is the
// template's own (nothing injected), the redirect goes only to the return_url, and only the
// simulator's own sessions are served.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import { encodeAny, nastyString, wellFormed } from './arbitraries.ts';

const SEED = Number(process.env.HARDENING_SEED ?? Date.now() % 2_147_483_647);
const SCALE = Number(process.env.HARDENING_SCALE ?? 1);

/** Markup that has broken pages elsewhere. */
const HTML_PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '</style><script>x</script>',
  '</title><script>x</script>',
  '<!--',
  ']]><![CDATA[',
  '&lt;already&gt; &amp; escaped',
  '&#x3C;script&#x3E;',
  '<svg/onload=alert(1)>',
  '`${x}`',
  '\u2028\u2029',
  '<a href="javascript:alert(1)">x</a>',
];

const hostileName = fc
  .tuple(fc.oneof(fc.constantFrom(...HTML_PAYLOADS), nastyString), fc.constantFrom(...HTML_PAYLOADS))
  // Text in SQLite is UTF-8: a lone surrogate comes back as U+FFFD, as a catalogue import would keep it.
  .map(([a, b]) => wellFormed(`N${a}${b}`.slice(0, 300)));

/** The markup of a page with every attribute value and text left out: what data must never change. */
function skeleton(html: string): string[] {
  return [...html.matchAll(/<[^>]*>/g)].map((m) => m[0].replace(/="[^"]*"/g, '=""'));
}

/** Text as the browser would show it: entities decoded. */
function decoded(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('the sandbox payment page under hostile data', () => {
  let t: EngineUnderTest;
  let cases = 0;
  let pages = 0;
  before(async () => {
    t = await startEngineUnderTest();
  });
  after(async () => {
    console.log(`[hardening] sandbox payment page: ${cases} hostile catalogues and return URLs, ${pages} pages checked`);
    await t.stop();
  });

  const rename = (names: { restaurant: string; location: string; product: string; option: string }) => {
    const db = t.server.engine.db;
    db.prepare('UPDATE restaurants SET name = ? WHERE id = ?').run(names.restaurant, R1.id);
    db.prepare('UPDATE locations SET name = ? WHERE id = ?').run(names.location, R1.openLocation);
    db.prepare('UPDATE products SET name = ? WHERE id = ?').run(names.product, R1.products.churrasco);
    db.prepare('UPDATE modifier_options SET name = ? WHERE id = ?').run(names.option, R1.options.frica);
  };

  const createOnline = async (returnUrl: string) => {
    const res = await t.call('POST', '/orders', {
      key: t.demo[0]!.keys.test_write,
      body: {
        location_id: R1.openLocation,
        type: 'delivery',
        address: 'Av. Test 1',
        customer: { name: 'Eve' },
        items: [
          { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.frica] },
          { product_id: R1.products.cazuela, quantity: 2 },
        ],
        payment: 'online',
        return_url: returnUrl,
      },
    });
    return res;
  };

  const page = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      redirect: 'manual',
      ...(form ? { method: 'POST', body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
    });
    pages++;
    return { status: res.status, headers: res.headers, html: await res.text() };
  };

  const strictHeaders = (headers: Headers) => {
    const csp = headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    assert.equal(headers.get('cache-control'), 'no-store');
  };

  test('every name and return URL shown is escaped: the markup never changes, the text reads back as given', async () => {
    // The markup with plain names, to compare with.
    rename({ restaurant: 'R', location: 'L', product: 'P', option: 'O' });
    const plain = await createOnline('https://tienda.example/vuelta');
    assert.equal(plain.status, 201, plain.text);
    const plainOpen = skeleton((await page(plain.body.payment_link.payment_url)).html);
    await t.call('PATCH', `/orders/${plain.body.id}`, { key: t.demo[0]!.keys.test_write, body: { status: 'cancelado' } });
    const plainClosed = skeleton((await page(plain.body.payment_link.payment_url)).html);

    await fc.assert(
      fc.asyncProperty(
        fc.record({ restaurant: hostileName, location: hostileName, product: hostileName, option: hostileName }),
        fc.oneof(fc.constantFrom(...HTML_PAYLOADS), nastyString),
        fc.constantFrom('success', 'cancel'),
        async (names, query, ending) => {
          cases++;
          rename(names);
          const returnUrl = `https://tienda.example/vuelta?x=${encodeAny(query).slice(0, 500)}&raw=${wellFormed(query).replace(/[#\s]/g, '').slice(0, 200)}`;
          const created = await createOnline(returnUrl);
          if (created.status === 400) return; // a return_url the API itself refuses
          assert.equal(created.status, 201, created.text);
          const url = created.body.payment_link.payment_url;
          const open = await page(url);
          assert.equal(open.status, 200);
          strictHeaders(open.headers);
          assert.deepEqual(skeleton(open.html), plainOpen, 'hostile data changed the markup of the page');
          const text = decoded(open.html);
          for (const name of [names.restaurant, names.location, names.product, names.option]) {
            assert.ok(text.includes(name), `the page does not show ${JSON.stringify(name.slice(0, 40))} as given`);
          }
          if (ending === 'success') {
            const paid = await page(url, { result: 'success', method: 'tarjeta' });
            assert.equal(paid.status, 303);
            const location = new URL(paid.headers.get('location')!);
            const expected = new URL(returnUrl);
            // The redirect goes to the return_url and nowhere else, with order_id and payment added.
            assert.equal(location.origin, expected.origin);
            assert.equal(location.pathname, expected.pathname);
            assert.equal(location.searchParams.get('order_id'), created.body.id);
            assert.equal(location.searchParams.get('payment'), 'success');
          } else {
            await t.call('PATCH', `/orders/${created.body.id}`, { key: t.demo[0]!.keys.test_write, body: { status: 'cancelado' } });
            const closed = await page(url);
            assert.equal(closed.status, 410);
            strictHeaders(closed.headers);
            assert.deepEqual(skeleton(closed.html), plainClosed, 'hostile data changed the markup of the closed page');
            const href = /<a class="button" href="([^"]*)"/.exec(closed.html)?.[1];
            assert.ok(href);
            assert.equal(new URL(decoded(href)).origin, 'https://tienda.example');
          }
        },
      ),
      { numRuns: Math.max(5, Math.round(60 * SCALE)), seed: SEED, endOnFailure: true },
    );
  });

  test('only the simulator\'s own sessions: any other id, of any shape, is the same 404 and changes nothing', async () => {
    rename({ restaurant: 'R', location: 'L', product: 'P', option: 'O' });
    const created = await createOnline('https://tienda.example/vuelta');
    const real = created.body.payment_link.session_id as string;
    const base = created.body.payment_link.payment_url.slice(0, -real.length);
    // A session of another provider, shaped like the simulator's.
    const foreign = `ps_test_${'cd'.repeat(16)}`;
    await t.server.engine.stores.paymentSessions.insert({ id: foreign, order_id: created.body.id, provider: 'other', return_url: 'https://evil.example/', preselected_method: null, created_at: t.clock.now() });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constant(foreign),
          fc.stringMatching(/^ps_test_[0-9a-f]{32}$/),
          fc.stringMatching(/^ps_live_[0-9a-f]{32}$/),
          fc.constantFrom(real.toUpperCase(), `${real}x`, real.slice(0, -1), `${real}%00`, `${real}/..`, encodeURIComponent(`${real}'`)),
          nastyString.map(encodeAny),
        ),
        fc.constantFrom('GET', 'POST'),
        async (id, method) => {
          if (id === real) return;
          const res = await page(`${base}${id}`, method === 'POST' ? { result: 'success', method: 'tarjeta' } : undefined);
          assert.ok(res.status === 404 || res.status === 400, `${method} ${id} -> ${res.status}`);
          assert.doesNotMatch(res.html, /<script/i);
        },
      ),
      { numRuns: Math.max(10, Math.round(150 * SCALE)), seed: SEED, endOnFailure: true },
    );
    const order = await t.call('GET', `/orders/${created.body.id}`, { key: t.demo[0]!.keys.test_read });
    assert.equal(order.body.status, 'pendiente_pago');
    assert.equal(order.body.payment.paid, false);
  });
});
