// MirrorStore's contract, on both databases: the writes a replica makes to mirror its upstream's
// restaurant, locations and catalogue, read back through the catalogue and locations stores.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { MirroredProduct } from '../../../../src/engine/store/mirror-store.ts';
import { type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

const M = 'r-mirror';
const product = (id: string, changes: Partial<MirroredProduct> = {}): MirroredProduct => ({
  id, restaurant_id: M, category_id: 'cat-1', slug: id, name: `Producto ${id}`, description: null, price: 2500, offer_price: null,
  image_url: null, track_stock: 0, position: 0, ...changes,
});

export function mirrorStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
  });
  after(() => db.stop());

  test('the restaurant: inserted with its zone, then renamed and its mode changed (zone and creation kept)', async () => {
    const { mirror } = db.stores;
    await mirror.upsertRestaurant(M, 'Espejo', 'manual', 'America/Santiago', 100);
    await mirror.upsertRestaurant(M, 'Espejo 2', 'schedule', 'Europe/Madrid', 200);
    assert.deepEqual(await db.rows(`SELECT name, register_mode, time_zone, created_at FROM restaurants WHERE id = '${M}'`), [
      { name: 'Espejo 2', register_mode: 'schedule', time_zone: 'America/Santiago', created_at: 100 },
    ]);
  });

  test('a location: none, inserted, updated (its place kept), its known status set', async () => {
    const { mirror } = db.stores;
    assert.equal(await mirror.location('m-l1'), undefined);
    await mirror.upsertLocation('m-l1', M, 'Centro', 'Calle 1', true, 3, '{"open":true}');
    await mirror.upsertLocation('m-l1', M, 'Centro 2', 'Calle 2', false, 9, '{"open":false}');
    assert.deepEqual(await mirror.location('m-l1'), { known_status: '{"open":false}', is_active: 0, name: 'Centro 2', address: 'Calle 2' });
    await mirror.setKnownStatus('m-l1', '{"open":true}');
    assert.equal((await mirror.location('m-l1'))?.known_status, '{"open":true}');
    assert.deepEqual(await db.rows("SELECT position FROM locations WHERE id = 'm-l1'"), [{ position: 3 }]);
  });

  test('a catalogue mirrored twice: what the second does not list is inactive; modifiers replaced whole, in order', async () => {
    const { mirror } = db.stores;
    await mirror.upsertCategory('cat-1', M, 'Sándwiches', 'Calientes', 0);
    await mirror.upsertCategory('cat-2', M, 'Bebidas', null, 1);
    await mirror.upsertProduct(product('p-1', { track_stock: 1, offer_price: 2000 }));
    await mirror.upsertProduct(product('p-2', { category_id: 'cat-2', position: 1 }));
    await mirror.replaceModifiers('p-1', [
      { id: 'g-1', name: 'Pan', required: true, min: 1, max: 1, options: [{ id: 'o-1', name: 'Marraqueta', price: 0 }, { id: 'o-2', name: 'Frica', price: 200 }] },
      { id: 'g-2', name: 'Extras', required: false, min: 0, max: 3, options: [] },
    ]);
    await mirror.deactivateCatalogue(M);
    await mirror.upsertCategory('cat-1', M, 'Sándwiches', null, 5);
    await mirror.upsertProduct(product('p-1', { name: 'Completo', price: 2800 }));
    await mirror.replaceModifiers('p-1', [{ id: 'g-3', name: 'Salsas', required: false, min: 0, max: 2, options: [{ id: 'o-3', name: 'Mayo', price: 0 }] }]);
    assert.deepEqual(await db.rows(`SELECT id, active, position, description FROM categories WHERE restaurant_id = '${M}' ORDER BY id`), [
      { id: 'cat-1', active: 1, position: 5, description: null }, { id: 'cat-2', active: 0, position: 1, description: null },
    ]);
    assert.deepEqual(await db.rows(`SELECT id, name, price, offer_price, active, track_stock FROM products WHERE restaurant_id = '${M}' ORDER BY id`), [
      { id: 'p-1', name: 'Completo', price: 2800, offer_price: null, active: 1, track_stock: 0 },
      { id: 'p-2', name: 'Producto p-2', price: 2500, offer_price: null, active: 0, track_stock: 0 },
    ]);
    assert.deepEqual(await db.rows("SELECT id, name, required, min, max, position FROM modifier_groups WHERE product_id = 'p-1' ORDER BY id"), [
      { id: 'g-3', name: 'Salsas', required: 0, min: 0, max: 2, position: 0 },
    ]);
    assert.deepEqual(await db.rows('SELECT id, group_id, name, price, position FROM modifier_options ORDER BY id'), [
      { id: 'o-3', group_id: 'g-3', name: 'Mayo', price: 0, position: 0 },
    ]);
    await mirror.replaceModifiers('p-2', [
      { id: 'g-4', name: 'Tamaño', required: true, min: 1, max: 1, options: [{ id: 'o-5', name: 'Grande', price: 500 }, { id: 'o-4', name: 'Chica', price: 0 }] },
    ]);
    assert.deepEqual(await db.rows("SELECT id, position FROM modifier_options WHERE group_id = 'g-4' ORDER BY position"), [
      { id: 'o-5', position: 0 }, { id: 'o-4', position: 1 },
    ]);
    await mirror.replaceModifiers('p-2', []);
    assert.deepEqual(await db.rows("SELECT id FROM modifier_groups WHERE product_id = 'p-2'"), []);
  });
}
