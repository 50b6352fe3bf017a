// What the admin CLIs (`npm run keys`, `npm run devices`) share: a usage mistake prints the usage
// and exits 2, a database refused at start-up is one line and exit 1, and a refusal from a service
// is its message and exit 1, with the engine closed whatever happened.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiError } from '../engine/domain/errors.ts';
import { Engine } from '../engine/engine.ts';
import { StorageRefusal } from '../engine/store/database-checks.ts';
import { defaultDatabasePath } from '../engine/data-dir.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A usage mistake: its message, then the usage text, on stderr; exit code 2. `text` is the usage itself. */
export type Usage = ((message: string) => never) & { readonly text: string };

/** The CLI's `usage(message)`: the message, then the usage text, on stderr; exit code 2. */
export function usageExit(usageText: string): Usage {
  const usage = (message: string): never => {
    console.error(`${message}\n${usageText}`);
    process.exit(2);
  };
  return Object.assign(usage, { text: usageText });
}

/**
 * The command (the first positional, one of `commands`) and the option values. `--help` (or `-h`)
 * anywhere prints the usage on stdout and exits 0; an unknown option is a usage mistake (exit 2).
 */
export function parseCommand<const O extends Options>(options: O, commands: readonly string[], usage: Usage) {
  const args = process.argv.slice(2);
  const end = args.indexOf('--');
  if ((end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(usage.text);
    process.exit(0);
  }
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options });
  } catch (error) {
    usage((error as Error).message);
  }
  const command = parsed.positionals[0];
  if (!command || !commands.includes(command)) usage(`a command is needed: ${commands.slice(0, -1).join(', ')} or ${commands.at(-1)}`);
  return { command, values: parsed.values };
}

/** Opens the engine on `--db` (or the default file), runs `work` (the engine stays open until it is done) and closes it. */
export async function runOnEngine(database: string | undefined, work: (engine: Engine) => Promise<void>): Promise<void> {
  let engine: Engine;
  const path = database ?? defaultDatabasePath();
  try {
    engine = new Engine({ database: path });
  } catch (error) {
    const message = error instanceof StorageRefusal ? error.message : `cannot use the database ${path}: ${(error as Error).message}`;
    console.error(message.replace(/\s*\n\s*/g, ' '));
    process.exit(1);
  }
  try {
    await work(engine);
  } catch (error) {
    if (error instanceof ApiError) {
      console.error(error.message);
      process.exitCode = 1;
    } else throw error;
  } finally {
    engine.close();
  }
}
