// The kernel's own view of this machine's TCP sockets (Linux: /proc/net/tcp and tcp6): what a test
// reads to see that the engine's side of a connection is gone, whatever the other side did (a
// device that never closes keeps its own half open; ours must not linger in FIN-WAIT-2).
import { readFileSync } from 'node:fs';

const STATES: Record<string, string> = {
  '01': 'ESTABLISHED', '02': 'SYN_SENT', '03': 'SYN_RECV', '04': 'FIN_WAIT1', '05': 'FIN_WAIT2', '06': 'TIME_WAIT',
  '07': 'CLOSE', '08': 'CLOSE_WAIT', '09': 'LAST_ACK', '0A': 'LISTEN', '0B': 'CLOSING',
};

/** States of the sockets connected to `port` (their remote end is it), TIME_WAIT left out: no process holds those. */
export function socketsTo(port: number): string[] {
  const states: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4) continue;
      const remotePort = Number.parseInt(fields[2]!.split(':')[1] ?? '', 16);
      const state = STATES[fields[3]!] ?? fields[3]!;
      if (remotePort === port && state !== 'TIME_WAIT') states.push(state);
    }
  }
  return states;
}
