// A node in a process of its own, for the test that kills one mid-job: it opens the storage port on
// the database it is given, claims the due jobs of a queue at the time and lease it is given,
// prints their ids as one JSON line, and then hangs as if its outside calls never came back, until
// it is killed.
import { PostgresStorage } from '../../../../src/engine/postgres/postgres-storage.ts';
import type { JobQueue } from '../../../../src/engine/storage/job-queues.ts';

const [connectionString, queue, now, leaseUntil] = process.argv.slice(2);
if (!connectionString || !queue || !now || !leaseUntil) throw new Error('usage: claiming-node <connection> <queue> <now> <leaseUntil>');
const node = await PostgresStorage.open({ connectionString, onError: (error) => console.error(error.message) });
const claims = await node.claimJobs(queue as JobQueue, Number(now), Number(leaseUntil), 100);
process.stdout.write(`${JSON.stringify(claims.map((claim) => claim.id))}\n`);
setInterval(() => {}, 60_000); // the outside calls under way
