import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that injects the network's failures between a replica and its
 * upstream: refused connections, delays, a reset in the middle of a response, 500s, 429s.
 */
export type FaultMode =
  | { kind: 'pass' }
  | { kind: 'refuse' }
  | { kind: 'delay'; ms: number }
  /** Each new connection reaches the upstream `ms` later (what it sends meanwhile waits); then it passes. */
  | { kind: 'slow-open'; ms: number }
  | { kind: 'reset-mid-response'; afterBytes: number }
  | { kind: 'status'; status: 500 | 429 | 503; retryAfterSeconds?: number }
  /** The next `times` requests whose first line matches answer `status`; everything else passes. */
  | { kind: 'fail-matching'; match: RegExp; times: number; status: 500 | 503 }
  /**
   * The next request whose first line matches is held (with whatever follows it on its connection)
   * until `release()`; everything else passes. `held` lists it meanwhile.
   */
  | { kind: 'hold-matching'; match: RegExp };

export class FaultProxy {
  private server: Server | null = null;
  private mode: FaultMode = { kind: 'pass' };
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** Requests that reached the upstream, by first line ("POST /v1/orders HTTP/1.1"). */
  readonly forwarded: string[] = [];
  /** Requests answered by a 'status' mode (none of them reached the upstream). */
  injected = 0;
  /** Requests answered with an injected failure by a 'fail-matching' mode. */
  readonly failed: string[] = [];
  /** The request a 'hold-matching' mode holds, by first line, until `release()` (forwarded lists it once let go). */
  readonly held: string[] = [];
  private releaseHeld: () => void = () => {};
  private heldGate: Promise<void> = Promise.resolve();

  constructor(private targetPort: number) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Changes what happens next; open connections are cut so the new mode applies at once. */
  set(mode: FaultMode): void {
    this.mode = mode;
    if (mode.kind === 'hold-matching') {
      this.held.length = 0;
      this.heldGate = new Promise<void>((resolve) => (this.releaseHeld = resolve));
    }
    this.cutAll();
  }

  /** Lets the request held by a 'hold-matching' mode (and what followed it) go on. */
  release(): void {
    this.releaseHeld();
  }

  retarget(port: number): void {
    this.targetPort = port;
    this.cutAll();
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(client: Socket): void {
    this.track(client);
    const mode = this.mode;
    if (mode.kind === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (mode.kind === 'status') {
      client.once('data', () => {
        this.injected++;
        const body = JSON.stringify({ error: { code: mode.status === 429 ? 'rate_limited' : 'internal_error', message: 'injected' } });
        const retry = mode.retryAfterSeconds !== undefined ? `Retry-After: ${mode.retryAfterSeconds}\r\n` : '';
        client.end(
          `HTTP/1.1 ${mode.status} Injected\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retry}Connection: close\r\n\r\n${body}`,
        );
      });
      return;
    }
    if (mode.kind === 'slow-open') {
      client.pause();
      const timer = setTimeout(() => {
        if (client.destroyed) return;
        this.pass(client, { kind: 'pass' });
        client.resume();
      }, mode.ms);
      client.once('close', () => clearTimeout(timer));
      return;
    }
    this.pass(client, mode);
  }

  private pass(client: Socket, mode: FaultMode): void {
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.track(upstream);
    // Once a request of this connection is held, what follows it waits behind it.
    let holding: Promise<void> | null = null;
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk: Buffer) => {
      const firstLine = chunk.toString('latin1').split('\r\n', 1)[0];
      if (mode.kind === 'fail-matching' && firstLine && mode.match.test(firstLine) && mode.times > 0) {
        mode.times--;
        this.failed.push(firstLine);
        const body = JSON.stringify({ error: { code: 'internal_error', message: 'injected' } });
        client.end(`HTTP/1.1 ${mode.status} Injected\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
        upstream.destroy();
        return;
      }
      if (mode.kind === 'hold-matching' && firstLine && mode.match.test(firstLine) && this.held.length === 0) {
        this.held.push(firstLine);
        holding = this.heldGate;
      }
      const forward = () => {
        if (firstLine && /^[A-Z]+ \//.test(firstLine)) this.forwarded.push(firstLine);
      };
      const send = () => upstream.write(chunk);
      if (holding) {
        void holding.then(() => {
          forward();
          send();
        });
        return;
      }
      forward();
      if (mode.kind === 'delay') setTimeout(send, mode.ms);
      else send();
    });
    let sent = 0;
    upstream.on('data', (chunk: Buffer) => {
      if (mode.kind === 'reset-mid-response') {
        const room = mode.afterBytes - sent;
        if (room <= 0) return;
        client.write(chunk.subarray(0, room));
        sent += Math.min(room, chunk.length);
        if (sent >= mode.afterBytes) {
          client.resetAndDestroy();
          upstream.destroy();
        }
        return;
      }
      if (mode.kind === 'delay') setTimeout(() => client.write(chunk), mode.ms);
      else client.write(chunk);
    });
  }

  async stop(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
