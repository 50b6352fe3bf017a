// Kitchen printers from the command line, for a headless server and for tests: add one, list them
// with their state, print a test page, remove one. Output is JSON on stdout, like `npm run devices`.
import { PRINT_WHEN } from '../shared/screen-contract/printers.ts';
import { PRINTER_CODE_PAGES } from '../engine/printers/escpos-ticket.ts';
import { assembleProviders } from '../engine/providers.ts';
import { retrySetAsideJobs } from '../engine/services/printing/print-jobs.ts';
import { printTestPage } from '../engine/services/printing/print-test-page.ts';
import { addPrinter, listPrinters, removePrinter } from '../engine/services/printing/printers.ts';
import { parseCommand, runOnEngine, usageExit, type Usage } from './admin-command.ts';

const USAGE = `usage:
  npm run printers -- add --restaurant ID --name NAME --host H [--port P] --width 58|80 [--stations a,b]
                      --when arrival|fallback|bag[,…] [--fallback-seconds N] [--code-page ${PRINTER_CODE_PAGES.join('|')}] [--db PATH]
  npm run printers -- list --restaurant ID [--db PATH]
  npm run printers -- test --restaurant ID --name NAME|ID [--db PATH]     (prints a test page now)
  npm run printers -- remove --restaurant ID --name NAME|ID [--db PATH]
  npm run printers -- retry --restaurant ID --name NAME|ID [--db PATH]    (prints its tickets set aside again)
--port defaults to 9100 (raw TCP, what kitchen printers listen on); --stations defaults to every station;
--when: arrival prints each order's tickets as they come in, fallback only while none of its stations'
screens has been live for --fallback-seconds (default 60), bag a label when a delivery is bumped to listo.
test says what came back from the printer's address (reply: its first bytes in hex). A ticket the printer
never confirmed after a few sends is set aside (list: set_aside) so the next ones print; retry queues it again.`;

const usage: Usage = usageExit(USAGE);

const list = (text: string | undefined): string[] => (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text.trim())) usage(`--${name} must be a whole number, not ${JSON.stringify(text)}`);
  return Number(text);
}

async function main(): Promise<void> {
  const { command, values } = parseCommand(
    {
      restaurant: { type: 'string' },
      name: { type: 'string' },
      printer: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      width: { type: 'string' },
      stations: { type: 'string' },
      when: { type: 'string' },
      'fallback-seconds': { type: 'string' },
      'code-page': { type: 'string' },
      db: { type: 'string' },
    },
    ['add', 'list', 'test', 'remove', 'retry'],
    usage,
  );
  const restaurant = values.restaurant ?? usage('--restaurant ID is required');
  const printer = values.printer ?? values.name;
  if (command === 'add') {
    if (!values.name) usage('--name NAME is required');
    if (!values.host) usage('--host H is required (the printer\'s IP address, e.g. 192.168.1.50)');
    if (values.width !== '58' && values.width !== '80') usage(`--width must be 58 or 80 (mm of paper), not ${JSON.stringify(values.width ?? '')}`);
    if (!values.when) usage(`--when is required: ${PRINT_WHEN.join(', ')} (comma separated)`);
    const port = integer('port', values.port);
    const fallbackSeconds = integer('fallback-seconds', values['fallback-seconds']);
    await runOnEngine(values.db, async (engine) => {
      const added = await addPrinter(engine, restaurant, {
        name: values.name!,
        host: values.host!,
        ...(port !== undefined ? { port } : {}),
        width_mm: Number(values.width),
        ...(values['code-page'] !== undefined ? { code_page: values['code-page'] } : {}),
        stations: list(values.stations),
        when: list(values.when),
        ...(fallbackSeconds !== undefined ? { fallback_seconds: fallbackSeconds } : {}),
      });
      console.log(JSON.stringify(added));
    });
  } else if (command === 'list') {
    await runOnEngine(values.db, async (engine) => console.log(JSON.stringify(await listPrinters(engine, restaurant))));
  } else if (command === 'remove') {
    if (!printer) usage('--name NAME (or --printer ID) is required');
    await runOnEngine(values.db, async (engine) => console.log(JSON.stringify(await removePrinter(engine, restaurant, printer))));
  } else if (command === 'retry') {
    if (!printer) usage('--name NAME (or --printer ID) is required');
    // The engine beside it sees the jobs queued again at its next tick.
    await runOnEngine(values.db, async (engine) => console.log(JSON.stringify(await retrySetAsideJobs(engine, restaurant, printer))));
  } else {
    if (!printer) usage('--name NAME (or --printer ID) is required');
    await runOnEngine(values.db, async (engine) => {
      // This command is where the app starts: it assembles the providers, as the hosts do.
      const result = await printTestPage(engine, assembleProviders(engine).printers, restaurant, printer);
      const { printed, error, failure, silent, reply, reply_bytes } = result;
      console.log(JSON.stringify({ printed, error, failure, silent, reply, reply_bytes, printer: result.printer }));
      if (!result.printed) process.exitCode = 1;
    });
  }
}

await main();
