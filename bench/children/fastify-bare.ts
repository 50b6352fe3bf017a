// Fastify alone answering the same bytes from memory: what the engine's HTTP framework costs by
// itself, to tell it apart from the engine's own work (a diagnostic beside rows 1 and 2).
import Fastify from 'fastify';
import { answer, childConfig, tell } from '../lib/child.ts';

interface Config {
  headers: Record<string, string>;
  body: string;
}

const config = childConfig<Config>();
const app = Fastify({ logger: false, keepAliveTimeout: 5_000 });
app.get('/v1/*', (_request, reply) => {
  reply.headers(config.headers).send(config.body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
answer({}, () => app.close());
tell({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
