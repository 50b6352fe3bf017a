// Each engine node's GET /v1/health asked every 250 ms through a failover, as a load balancer does:
// every answer must be 200 { writable: true } or 503 { writable: false } with Retry-After (anything
// else is a wrong answer); a node that does not answer (killed) is counted, not judged. Reports the
// answers by kind, each node's longest time not writable, and the last answer of each.

export interface HealthAnswer {
  writable: boolean;
  nodeId: string;
}

export interface HealthReport {
  /** "a 200", "a 503", "b unreachable", … */
  counts: Record<string, number>;
  /** Per node, the longest time from an answer "not writable" (or none) to the next "writable". */
  unwritableMs: number[];
  /**
   * Per node, each such time as [from, to] in ms since the watch began (to: undefined while it lasts):
   * to tell a node's first seconds, a fault's window and a probe over its bound on a busy node apart.
   */
  unwritableWindows: [number, number | undefined][][];
  /** The node ids the answers named, per node (one each, distinct across nodes). */
  nodeIds: string[][];
  wrongAnswers: string[];
}

const ASK_EVERY_MS = 250;

export function watchHealth(nodes: readonly { name: string; baseUrl: string }[], now: () => number = () => performance.now()): {
  lastAnswers(): (HealthAnswer | undefined)[];
  report(): HealthReport;
  stop(): Promise<void>;
} {
  const counts: Record<string, number> = {};
  const last: (HealthAnswer | undefined)[] = nodes.map(() => undefined);
  const unwritableSince: (number | undefined)[] = nodes.map(() => undefined);
  const unwritableMs = nodes.map(() => 0);
  const began = now();
  const windows: [number, number | undefined][][] = nodes.map(() => []);
  const nodeIds = nodes.map(() => new Set<string>());
  const wrongAnswers: string[] = [];
  let stopping = false;
  const count = (kind: string) => (counts[kind] = (counts[kind] ?? 0) + 1);

  async function watch(index: number): Promise<void> {
    const node = nodes[index]!;
    while (!stopping) {
      const asked = now();
      let answer: HealthAnswer | undefined;
      try {
        const response = await fetch(`${node.baseUrl}/health`);
        const body = (await response.json()) as { writable?: unknown; node_id?: unknown };
        count(`${node.name} ${response.status}`);
        const shaped = typeof body.writable === 'boolean' && typeof body.node_id === 'string';
        if (shaped && response.status === 200 && body.writable === true) answer = { writable: true, nodeId: body.node_id as string };
        else if (shaped && response.status === 503 && body.writable === false && response.headers.get('retry-after')) answer = { writable: false, nodeId: body.node_id as string };
        else wrongAnswers.push(`${node.name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      } catch {
        count(`${node.name} unreachable`);
      }
      if (answer) {
        last[index] = answer;
        nodeIds[index]!.add(answer.nodeId);
      }
      if (answer?.writable) {
        const since = unwritableSince[index];
        if (since !== undefined) {
          unwritableMs[index] = Math.max(unwritableMs[index]!, now() - since);
          windows[index]!.at(-1)![1] = now() - began;
        }
        unwritableSince[index] = undefined;
      } else if (unwritableSince[index] === undefined) {
        unwritableSince[index] = asked;
        windows[index]!.push([asked - began, undefined]);
      }
      await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
    }
  }

  const watchers = nodes.map((_, index) => watch(index));
  return {
    lastAnswers: () => [...last],
    report: () => ({
      counts: { ...counts },
      unwritableMs: [...unwritableMs],
      unwritableWindows: windows.map((node) => node.map(([from, to]) => [from, to] as [number, number | undefined])),
      nodeIds: nodeIds.map((ids) => [...ids]),
      wrongAnswers: [...wrongAnswers],
    }),
    async stop() {
      stopping = true;
      await Promise.all(watchers);
    },
  };
}
