// `npm run restaurant -- <command>`: imports and checks restaurant configuration files.
//   import FILE [--db PATH]   validate FILE and write it into the engine's database
//   validate FILE             only check FILE
//   schema                    print the JSON Schema of the format
//   pickup-screen --restaurant ID [--first-name on|off] [--order-types pickup|pickup,delivery]
//                 [--language es|en] [--db PATH]   the pickup screen's settings (JSON out)
// Problems go to stderr, one per line as `PATH: message`, and the exit code is 1.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { systemClock } from '../engine/clock.ts';
import { Engine } from '../engine/engine.ts';
import { StorageRefusal } from '../engine/store/database-checks.ts';
import { openDatabase } from '../engine/store/open-database.ts';
import { importRestaurant, RestaurantConfigError } from '../engine/services/restaurants/import-restaurant.ts';
import { renderRestaurantConfigJsonSchema, type RestaurantConfig } from '../engine/restaurant-config/schema.ts';
import { validateRestaurantConfig } from '../engine/restaurant-config/validate-restaurant-config.ts';
import { defaultDatabasePath } from '../engine/data-dir.ts';
import { readPickupScreenSettings, updatePickupScreenSettings, type PickupScreenSettingsPatch } from '../engine/services/kitchen/pickup-screen-settings.ts';
import { runOnEngine } from './admin-command.ts';

const USAGE = `usage:
  npm run restaurant -- import FILE [--db PATH]   import a restaurant configuration (default database: ${defaultDatabasePath()})
  npm run restaurant -- validate FILE             check a restaurant configuration
  npm run restaurant -- schema                    print the JSON Schema of the configuration format
  npm run restaurant -- pickup-screen --restaurant ID [--first-name on|off] [--order-types pickup|pickup,delivery]
                        [--language es|en] [--db PATH]
      the pickup screen's settings ("Pantalla de retiro"), printed as JSON after any change:
      --first-name on shows the customer's first name beside the number (off by default: numbers only);
      --order-types pickup,delivery shows deliveries too (pickup only by default); --language of the screen.
The format is described in docs/restaurant-config.md.`;

/** A failure to report as plain lines on stderr (no stack trace: the user can act on the text). */
class CliFailure extends Error {
  constructor(
    readonly lines: string[],
    readonly exitCode = 1,
  ) {
    super(lines.join('\n'));
  }
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        restaurant: { type: 'string' },
        'first-name': { type: 'string' },
        'order-types': { type: 'string' },
        language: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliFailure([(error as Error).message, USAGE], 2);
  }
  const { values, positionals } = parsed;
  const [command, file, ...extra] = positionals;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (extra.length > 0) throw new CliFailure([`unexpected argument: ${extra.join(' ')}`, USAGE], 2);
  if (command === 'pickup-screen') {
    if (file !== undefined) throw new CliFailure([`unexpected argument: ${file}`, USAGE], 2);
    await pickupScreen(values);
    return;
  }
  const pickupOnly = (['restaurant', 'first-name', 'order-types', 'language'] as const).filter((name) => values[name] !== undefined);
  if (pickupOnly.length > 0) throw new CliFailure([`--${pickupOnly[0]} is only for pickup-screen`, USAGE], 2);
  if (values.db !== undefined && command !== 'import') throw new CliFailure(['--db is only for import and pickup-screen', USAGE], 2);

  switch (command) {
    case 'schema':
      if (file !== undefined) throw new CliFailure([`unexpected argument: ${file}`, USAGE], 2);
      process.stdout.write(renderRestaurantConfigJsonSchema());
      return;
    case 'validate': {
      const json = readConfigFile(requireFile(file));
      const validation = validateRestaurantConfig(json);
      if (!validation.ok) throw new CliFailure(problemLines(requireFile(file), validation.errors));
      console.log(`valid: ${describe(validation.config, validation.config.id ?? '(id generated on import)')}`);
      return;
    }
    case 'import': {
      const path = requireFile(file);
      const json = readConfigFile(path);
      // Checked before the database is opened, so a bad file creates nothing.
      const validation = validateRestaurantConfig(json);
      if (!validation.ok) throw new CliFailure(problemLines(path, validation.errors));
      const engine = new Engine({ database: openOrRefuse(values.db ?? defaultDatabasePath()), clock: systemClock });
      try {
        const imported = await importRestaurant(engine, json);
        console.log(`imported: ${describe(validation.config, imported.restaurantId)}`);
      } catch (error) {
        if (error instanceof RestaurantConfigError) throw new CliFailure(problemLines(path, error.errors));
        throw error;
      } finally {
        await engine.close();
      }
      return;
    }
    case undefined:
      throw new CliFailure([USAGE], 2);
    default:
      throw new CliFailure([`unknown command: ${command}`, USAGE], 2);
  }
}

/** Shows (and with options, first changes) the restaurant's pickup screen settings. */
async function pickupScreen(values: { db?: string; restaurant?: string; 'first-name'?: string; 'order-types'?: string; language?: string }): Promise<void> {
  const restaurant = values.restaurant?.trim();
  if (!restaurant) throw new CliFailure(['--restaurant ID is required', USAGE], 2);
  const patch: PickupScreenSettingsPatch = {};
  const firstName = values['first-name'];
  if (firstName !== undefined) {
    if (firstName !== 'on' && firstName !== 'off') throw new CliFailure([`--first-name must be on or off, not ${JSON.stringify(firstName)}`, USAGE], 2);
    patch.show_first_name = firstName === 'on';
  }
  const orderTypes = values['order-types'];
  if (orderTypes !== undefined) {
    const types = new Set(orderTypes.split(',').map((t) => t.trim()).filter((t) => t !== ''));
    const unknown = [...types].filter((t) => t !== 'pickup' && t !== 'delivery');
    if (unknown.length > 0 || !types.has('pickup')) {
      throw new CliFailure([`--order-types must be pickup or pickup,delivery, not ${JSON.stringify(orderTypes)}`, USAGE], 2);
    }
    patch.order_types = types.has('delivery') ? 'pickup_and_delivery' : 'pickup';
  }
  if (values.language !== undefined) patch.language = values.language;
  await runOnEngine(values.db, async (engine) => {
    const settings = Object.keys(patch).length > 0 ? await updatePickupScreenSettings(engine, restaurant, patch) : await readPickupScreenSettings(engine, restaurant);
    console.log(JSON.stringify({ restaurant_id: restaurant, ...settings }));
  });
}

function openOrRefuse(path: string): ReturnType<typeof openDatabase> {
  try {
    return openDatabase(path);
  } catch (error) {
    if (error instanceof StorageRefusal) throw new CliFailure([error.message]);
    throw error;
  }
}

function requireFile(file: string | undefined): string {
  if (file === undefined) throw new CliFailure(['missing FILE', USAGE], 2);
  return file;
}

function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliFailure([`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliFailure([`${path}: $: not valid JSON (${(error as Error).message})`]);
  }
}

function problemLines(path: string, errors: { path: string; message: string }[]): string[] {
  return [`${path}: ${errors.length} problem(s)`, ...errors.map((e) => `${e.path}: ${e.message}`)];
}

function describe(config: RestaurantConfig, restaurantId: string): string {
  const products = config.catalogue.categories.reduce((sum, category) => sum + category.products.length, 0);
  return `restaurant ${restaurantId} "${config.name}", ${config.locations.length} location(s), ${products} product(s)`;
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof CliFailure) {
    for (const line of error.lines) console.error(line);
    process.exitCode = error.exitCode;
  } else {
    console.error(`restaurant: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
