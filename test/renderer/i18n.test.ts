// The screen's words say one and many properly ("1 pedido nuevo", "2 pedidos nuevos"), never "pedido(s)".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translate } from '../../src/renderer/src/i18n.ts';
import { es } from '../../src/renderer/src/locales/es.ts';
import { en } from '../../src/renderer/src/locales/en.ts';
import { englishIn } from './support/spanish-words.ts';

test('a count picks its form: one for exactly 1, the other for 0 and more, in Spanish and English', () => {
  assert.equal(translate('es', 'board.ringing', { count: 1 }), '1 pedido nuevo sin tocar');
  assert.equal(translate('es', 'board.ringing', { count: 3 }), '3 pedidos nuevos sin tocar');
  assert.equal(translate('es', 'board.new_orders', { count: 1, number: '42' }), '1 nuevo: #42');
  assert.equal(translate('es', 'board.new_orders', { count: 2, number: '42' }), '2 nuevos: #42');
  assert.equal(translate('es', 'board.menu_waiting_title', { count: 1 }), '1 pedido programado o esperando pago: aún no llega a la cocina. Está en este menú.');
  assert.equal(translate('es', 'board.menu_waiting_title', { count: 2 }), '2 pedidos programados o esperando pago: aún no llegan a la cocina. Están en este menú.');
  assert.equal(translate('es', 'board.recall_items', { count: 1 }), '1 producto');
  assert.equal(translate('es', 'demo.rush_pace', { count: 12 }), '12 pedidos por minuto');
  assert.equal(translate('en', 'board.ringing', { count: 1 }), '1 new order not touched yet');
  assert.equal(translate('en', 'board.ringing', { count: 0 }), '0 new orders not touched yet');
  assert.equal(translate('en', 'board.menu_waiting_title', { count: 1 }), '1 order scheduled or awaiting payment: not in the kitchen yet. It is in this menu.');
  assert.equal(translate('en', 'board.recall_items', { count: 2 }), '2 items');
  // Without its count the text is left as written (a missing variable shows, as for {name}).
  assert.equal(translate('es', 'board.recall_items'), '{count} {count?producto|productos}');
});

test('no string of the screens says "(s)" for a plural', () => {
  const hedged = Object.entries({ ...es, ...en }).filter(([, text]) => /\p{L}\((s|es|n)\)/u.test(String(text)));
  assert.deepEqual(hedged, []);
});

test("the Spanish scan reads a plural's two forms", () => {
  assert.deepEqual(englishIn('{count} {count?screen|pantallas}'), ['screen']);
  assert.deepEqual(englishIn('{count} {count?pantalla|screens}'), []);
});
