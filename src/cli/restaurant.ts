// `npm run restaurant -- <command>`: imports and checks restaurant configuration files.
//   import FILE [--db PATH]   validate FILE and write it into the engine's database
//   validate FILE             only check FILE
//   schema                    print the JSON Schema of the format
// Problems go to stderr, one per line as `PATH: message`, and the exit code is 1.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { systemClock } from '../engine/clock.ts';
import { StorageRefusal } from '../engine/store/database-checks.ts';
import { openDatabase } from '../engine/store/open-database.ts';
import { importRestaurant, RestaurantConfigError } from '../engine/restaurant-config/import-restaurant.ts';
import { renderRestaurantConfigJsonSchema, type RestaurantConfig } from '../engine/restaurant-config/schema.ts';
import { validateRestaurantConfig } from '../engine/restaurant-config/validate-restaurant-config.ts';
import { defaultDatabasePath } from '../engine/data-dir.ts';

const USAGE = `usage:
  npm run restaurant -- import FILE [--db PATH]   import a restaurant configuration (default database: ${defaultDatabasePath()})
  npm run restaurant -- validate FILE             check a restaurant configuration
  npm run restaurant -- schema                    print the JSON Schema of the configuration format
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

function main(argv: string[]): void {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
  if (values.db !== undefined && command !== 'import') throw new CliFailure(['--db is only for import', USAGE], 2);

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
      const db = openOrRefuse(values.db ?? defaultDatabasePath());
      try {
        const imported = importRestaurant(db, json, systemClock);
        console.log(`imported: ${describe(validation.config, imported.restaurantId)}`);
      } catch (error) {
        if (error instanceof RestaurantConfigError) throw new CliFailure(problemLines(path, error.errors));
        throw error;
      } finally {
        db.close();
      }
      return;
    }
    case undefined:
      throw new CliFailure([USAGE], 2);
    default:
      throw new CliFailure([`unknown command: ${command}`, USAGE], 2);
  }
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
  main(process.argv.slice(2));
} catch (error) {
  if (error instanceof CliFailure) {
    for (const line of error.lines) console.error(line);
    process.exitCode = error.exitCode;
  } else {
    console.error(`restaurant: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
