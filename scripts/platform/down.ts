// `npm run platform -- down`: stops the layout and leaves nothing running. Patroni first (SIGTERM:
// it stops its PostgreSQL cleanly), then HAProxy and etcd; whatever is still there after that
// (a PostgreSQL left by a Patroni killed with -9, a process that ignores SIGTERM) gets SIGKILL.
import { keyedOn } from './keyed-on.ts';
import { readLayout } from './layout.ts';
import { isAlive, recordedProcesses, signal, type ProcessRecord } from './processes.ts';
import { waitFor } from './wait.ts';

export { postmasterOf } from './keyed-on.ts';

/** Everything of the platform still running: its recorded processes (engine nodes too), its postmasters, whatever works in its folder. */
const everything = keyedOn;

export async function down(dir: string): Promise<{ stopped: number; killed: number }> {
  const layout = readLayout(dir);
  const patronis = recordedProcesses(dir).filter((record) => layout.nodes.some((node) => node.name === record.name));
  signal(patronis, 'SIGTERM');
  await waitFor(async () => patronis.filter(isAlive).length, 'Patroni to stop its PostgreSQL', (alive) => alive === 0, 60_000).catch(() => {});
  const rest = everything(dir);
  signal(rest, 'SIGTERM');
  await waitFor(async () => rest.filter(isAlive).length, 'etcd and HAProxy to stop', (alive) => alive === 0, 20_000).catch(() => {});
  const stubborn = everything(dir);
  signal(stubborn, 'SIGKILL');
  await waitFor(async () => everything(dir).length, 'every process of the platform to be gone', (alive) => alive === 0, 20_000);
  return { stopped: patronis.length + rest.length, killed: stubborn.length };
}

/** The platform's processes still running (empty once `down` is done). */
export function stillRunning(dir: string): ProcessRecord[] {
  return everything(dir);
}
