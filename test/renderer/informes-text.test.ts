// Informes' words (issue 33): a count and its word agree ("1 anulada", not "1 anuladas"), in Spanish
// and English, and every Spanish text has its English one with the same values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { es, informesText, periodWords, ticketsSummary } from '../../src/renderer/src/reports/informes-text.ts';

test('a count of one takes the singular, any other count the plural', () => {
  const text = informesText('es');
  assert.equal(text('excluded_counts', { mass: 4, fast: 1, open: 1, tickets: 1 }), '4 barridas · 1 demasiado rápida · 1 plato abierto · 1 comanda abierta');
  assert.equal(text('promises_summary', { kept: 1, ready: 1 }), '1 de 1 pedido listo a tiempo');
  assert.equal(text('promises_none_ready', { not_ready: 1 }), '1 pedido prometido, ninguno listo (anulados o abiertos)');
  assert.equal(text('replay_queue', { lines: 1 }), 'En cola: 1 plato esperando cocinero');
  assert.equal(informesText('en')('excluded_counts', { mass: 1, fast: 0, open: 2, tickets: 1 }), '1 sweep · 0 too fast · 2 items left open · 1 ticket left open');
});

test('the tickets in plain words: how many the times count, the others once each by why, zeros not said', () => {
  const text = informesText('es');
  // A new user's "Hoy": five orders in, none finished yet (was "5 comandas llegaron a cocina · 0 contadas · 0 fuera por no ser creíbles · 0 anuladas · 5 abiertas").
  assert.equal(ticketsSummary(text, { fired: 5, counted: 0, cancelled: 0, left_out: 0 }), '5 comandas llegaron a cocina. Ninguna comanda terminada cuenta en los tiempos. No cuentan: 5 sin terminar.');
  assert.equal(ticketsSummary(text, { fired: 1, counted: 1, cancelled: 0, left_out: 0 }), '1 comanda llegó a cocina. Los tiempos se calculan con 1 comanda terminada.');
  assert.equal(
    ticketsSummary(text, { fired: 30, counted: 21, cancelled: 1, left_out: 8 }),
    '30 comandas llegaron a cocina. Los tiempos se calculan con 21 comandas terminadas. No cuentan: 1 anulada y 8 dejadas fuera porque sus marcas no pueden ser reales.',
  );
  assert.equal(
    ticketsSummary(text, { fired: 12, counted: 6, cancelled: 2, left_out: 1 }),
    '12 comandas llegaron a cocina. Los tiempos se calculan con 6 comandas terminadas. No cuentan: 3 sin terminar, 2 anuladas y 1 dejada fuera porque sus marcas no pueden ser reales.',
  );
  assert.equal(
    ticketsSummary(informesText('en'), { fired: 12, counted: 6, cancelled: 2, left_out: 1 }),
    '12 tickets reached the kitchen. Times are computed from 6 finished tickets. Not counted: 3 not finished, 2 cancelled and 1 left out because their bumps cannot be true.',
  );
});

test('a value not given stays visible as its placeholder, and no text is left with one once all are given', () => {
  const text = informesText('es');
  assert.equal(text('busy_refused'), 'Pedidos rechazados: {count}');
  for (const language of ['es', 'en'] as const) {
    const words = informesText(language);
    for (const key of Object.keys(es) as (keyof typeof es)[]) {
      const names = [...es[key].matchAll(/\{(\w+)/g)].map((m) => m[1]!);
      const filled = words(key, Object.fromEntries(names.map((n) => [n, 2])));
      assert.doesNotMatch(filled, /[{}|]/, `${language} ${key}: ${filled}`);
    }
  }
});

test('an empty period is said as one day or as days: "este día" for a day, "en estos días" for a range', () => {
  const text = informesText('es');
  const day = { from: '2026-11-20', to: '2026-11-20' };
  const range = { from: '2026-11-14', to: '2026-11-20' };
  assert.equal(text('empty', { period: periodWords(text, day) }), 'Ningún pedido llegó a la cocina este día.');
  assert.equal(text('rush_none', { period: periodWords(text, day) }), 'Ninguna comanda terminó ni estuvo en curso este día.');
  assert.equal(text('promises_none', { period: periodWords(text, day) }), 'Ningún pedido recibió una hora prometida este día.');
  assert.equal(text('busy_none', { period: periodWords(text, day) }), 'La sucursal no pausó pedidos este día.');
  assert.equal(text('cancellations_rule', { period: periodWords(text, day) }), 'Pedidos hechos este día y anulados; «en cocina» si alcanzaron a llegar a la cocina.');
  assert.equal(text('empty', { period: periodWords(text, range) }), 'Ningún pedido llegó a la cocina en estos días.');
  const english = informesText('en');
  assert.equal(english('busy_none', { period: periodWords(english, day) }), 'The location did not pause orders on this day.');
  assert.equal(english('busy_none', { period: periodWords(english, range) }), 'The location did not pause orders on these days.');
});
