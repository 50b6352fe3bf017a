// Patroni's REST API as the platform reads it: the cluster's members (GET /cluster on any node)
// and each node's own answer. Answers are parsed strictly: a member without a name or role is an error.
import type { PlatformLayout } from './layout.ts';

export interface ClusterMember {
  name: string;
  role: 'leader' | 'replica' | 'sync_standby' | 'standby_leader';
  state: string;
  timeline?: number;
  /** Bytes behind the leader (Patroni's figure), absent for the leader. */
  lag?: number | string;
}

const ROLES = new Set(['leader', 'replica', 'sync_standby', 'standby_leader']);

export function parseCluster(body: unknown): ClusterMember[] {
  const members = (body as { members?: unknown })?.members;
  if (!Array.isArray(members)) throw new Error('Patroni /cluster answer without members');
  return members.map((raw: Record<string, unknown>) => {
    if (typeof raw.name !== 'string' || typeof raw.role !== 'string' || !ROLES.has(raw.role) || typeof raw.state !== 'string') {
      throw new Error(`Patroni /cluster member not understood: ${JSON.stringify(raw).slice(0, 200)}`);
    }
    return {
      name: raw.name,
      role: raw.role as ClusterMember['role'],
      state: raw.state,
      ...(typeof raw.timeline === 'number' ? { timeline: raw.timeline } : {}),
      ...(typeof raw.lag === 'number' || typeof raw.lag === 'string' ? { lag: raw.lag } : {}),
    };
  });
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

/** The members as the first node that answers sees them. */
export async function clusterMembers(layout: PlatformLayout): Promise<ClusterMember[]> {
  let lastError: unknown;
  for (const node of layout.nodes) {
    try {
      return parseCluster(await getJson(`http://${layout.host}:${node.restPort}/cluster`));
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('no Patroni node answers');
}

/** The status code a node's Patroni answers on a health endpoint (/primary, /sync, /health), or 0 when it does not answer. */
export async function restStatus(layout: PlatformLayout, nodeName: string, path: string): Promise<number> {
  const node = layout.nodes.find((candidate) => candidate.name === nodeName);
  if (!node) throw new Error(`no node ${nodeName}`);
  try {
    const response = await fetch(`http://${layout.host}:${node.restPort}${path}`, { signal: AbortSignal.timeout(3000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

export const leaderOf = (members: ClusterMember[]) => members.find((member) => member.role === 'leader')?.name;
export const syncStandbyOf = (members: ClusterMember[]) => members.find((member) => member.role === 'sync_standby')?.name;
