import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderRestaurantConfigJsonSchema, restaurantConfigJsonSchema } from '../../../src/engine/restaurant-config/schema.ts';

const COMMITTED = new URL('../../../docs/restaurant-config.schema.json', import.meta.url);

test('docs/restaurant-config.schema.json matches the TypeBox schema', () => {
  assert.equal(
    readFileSync(COMMITTED, 'utf8'),
    renderRestaurantConfigJsonSchema(),
    'the committed JSON Schema is stale: run `node --import tsx src/engine/restaurant-config/write-json-schema.ts`',
  );
});

test('fields with a default are optional in the published schema', () => {
  const schema = restaurantConfigJsonSchema() as any;
  assert.deepEqual(schema.required, ['name', 'register_mode', 'locations', 'catalogue']);
  const location = schema.properties.locations.items;
  assert.deepEqual(location.required, ['name', 'address']);
  assert.equal(location.properties.is_active.default, true);
  const group = schema.properties.catalogue.properties.categories.items.properties.products.items.properties.modifier_groups.items;
  assert.deepEqual(group.required, ['name', 'max', 'options']);
});

test('every field of the published schema is documented', () => {
  const undocumented: string[] = [];
  const walk = (node: any, path: string) => {
    if (node === null || typeof node !== 'object') return;
    if (node.properties) {
      for (const [name, property] of Object.entries<any>(node.properties)) {
        // A `const` discriminator documents itself; its object carries the description.
        if (property.description === undefined && property.const === undefined) undocumented.push(`${path}.${name}`);
        walk(property, `${path}.${name}`);
      }
    }
    if (node.items) walk(node.items, `${path}[]`);
    for (const branch of node.anyOf ?? []) walk(branch, path);
  };
  walk(restaurantConfigJsonSchema(), '$');
  assert.deepEqual(undocumented, []);
});
