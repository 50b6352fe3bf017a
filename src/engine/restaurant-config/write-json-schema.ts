// Regenerates docs/restaurant-config.schema.json from the TypeBox schema. Run it after changing
// schema.ts: `node --import tsx src/engine/restaurant-config/write-json-schema.ts`
// (a test fails while the committed file and the schema differ).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderRestaurantConfigJsonSchema } from './schema.ts';

const JSON_SCHEMA_FILE = fileURLToPath(new URL('../../../docs/restaurant-config.schema.json', import.meta.url));

writeFileSync(JSON_SCHEMA_FILE, renderRestaurantConfigJsonSchema());
console.log(`wrote ${JSON_SCHEMA_FILE}`);
