// A loopback TCP stand-in between a client and PostgreSQL that can stop forwarding without closing
// anything: the network a database machine leaves behind when it loses power or is partitioned
// away. After `blackhole()`, the connections open then carry nothing more in either direction and
// never end (neither side's close or FIN crosses it), exactly as a peer that vanished without a FIN
// or RST; connections opened later pass again (HAProxy sending them to the new leader, a partition
// healed for new paths), unless `swallowNew` is set, when they are accepted and hear nothing.
import { connect, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket;
  dead: boolean;
}

export class BlackholeProxy {
  private server: Server | null = null;
  private readonly links = new Set<Link>();
  /** Sockets a blackhole holds open, ended only by stop(). */
  private readonly held = new Set<Socket>();
  private swallowing = false;
  port = 0;
  /** Connections accepted so far (each new one a client's reconnection). */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Every connection open now stops carrying anything, and stays open. */
  blackhole(options: { swallowNew?: boolean } = {}): number {
    this.swallowing = options.swallowNew ?? false;
    let count = 0;
    for (const link of this.links) {
      link.dead = true;
      this.hold(link.client);
      this.hold(link.upstream);
      count += 1;
    }
    this.links.clear();
    return count;
  }

  /** New connections pass again. */
  heal(): void {
    this.swallowing = false;
  }

  private hold(socket: Socket): void {
    this.held.add(socket);
    // Its data is read and dropped (a full buffer would push back on the sender, which a vanished
    // peer's network does not), and its end is never passed on.
    socket.removeAllListeners('data');
    socket.removeAllListeners('end');
    socket.removeAllListeners('close');
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => this.held.delete(socket));
  }

  private accept(client: Socket): void {
    this.accepted += 1;
    client.on('error', () => {});
    if (this.swallowing) {
      this.hold(client);
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    upstream.on('error', () => {});
    const link: Link = { client, upstream, dead: false };
    this.links.add(link);
    client.on('data', (chunk: Buffer) => void (link.dead || upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => void (link.dead || client.write(chunk)));
    const end = () => {
      if (link.dead) return;
      this.links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  }

  async stop(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    for (const socket of this.held) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
