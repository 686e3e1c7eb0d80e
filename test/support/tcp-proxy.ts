import { AddressInfo, connect, createServer, NetConnectOpts, Server, Socket } from 'node:net';

/** What `hold()` returns: the client's next write has reached the upstream, and the way to let answers through again. */
export interface HeldReplies {
  clientWrote: Promise<void>;
  release(): void;
}

/**
 * What the proxy does with traffic: `forward` it; `blackhole` it (connections stay open, nothing
 * passes either way: a network partition); `reset` every connection, open or new (a refused or
 * crashed peer).
 */
export type ProxyMode = 'forward' | 'blackhole' | 'reset';

/**
 * A TCP proxy for fault tests: forwards 127.0.0.1:<port> to `upstream` and can delay what the
 * upstream answers (latency) or hold it until released, swallow traffic or reset connections.
 * Data keeps its order; `close()` ends every connection.
 */
export class TcpProxy {
  latencyMs = 0;
  private currentMode: ProxyMode = 'forward';
  private readonly sockets = new Set<Socket>();
  private replyGate: Promise<void> = Promise.resolve();
  private releaseHeld = () => {};
  private clientWriteWaiters: (() => void)[] = [];
  private constructor(private readonly server: Server) {}

  /** Listens on a free port of 127.0.0.1 (`port`). */
  static async start(upstream: NetConnectOpts): Promise<TcpProxy> {
    const proxy: TcpProxy = new TcpProxy(
      createServer((client) => {
        if (proxy.currentMode === 'reset') {
          client.resetAndDestroy();
          return;
        }
        const server = connect(upstream);
        proxy.track(client);
        proxy.track(server);
        client.on('data', (chunk) => {
          if (proxy.currentMode !== 'forward') return;
          server.write(chunk);
          for (const wake of proxy.clientWriteWaiters.splice(0)) wake();
        });
        let delivered = Promise.resolve();
        server.on('data', (chunk) => {
          if (proxy.currentMode !== 'forward') return;
          const due = Date.now() + proxy.latencyMs;
          const gate = proxy.replyGate;
          delivered = delivered
            .then(() => gate)
            .then(() => sleepUntil(due))
            .then(() => void client.write(chunk));
        });
        const closeBoth = () => {
          client.destroy();
          server.destroy();
        };
        client.on('close', closeBoth).on('error', closeBoth);
        server.on('close', () => void delivered.then(closeBoth)).on('error', closeBoth);
      }),
    );
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** A proxy in front of the PostgreSQL server of `databaseUrl`, and that URL through it. */
  static async inFrontOf(databaseUrl: string): Promise<{ proxy: TcpProxy; url: string }> {
    const direct = new URL(databaseUrl);
    const proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    return { proxy, url: proxy.throughProxy(databaseUrl) };
  }

  /** `url` with its host and port replaced by this proxy's. */
  throughProxy(url: string): string {
    const through = new URL(url);
    through.host = `127.0.0.1:${this.port}`;
    return through.toString();
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /**
   * Holds every answer the upstream sends from now on until `release()`, so a test can act while
   * a query it started is known to be in flight.
   */
  hold(): HeldReplies {
    let openGate!: () => void;
    this.replyGate = new Promise<void>((resolve) => (openGate = resolve));
    this.releaseHeld = () => {
      this.replyGate = Promise.resolve();
      openGate();
    };
    const clientWrote = new Promise<void>((resolve) => this.clientWriteWaiters.push(resolve));
    return { clientWrote, release: this.releaseHeld };
  }

  get mode(): ProxyMode {
    return this.currentMode;
  }

  /** Switches mode; `reset` also resets every open connection. */
  set mode(mode: ProxyMode) {
    this.currentMode = mode;
    if (mode === 'reset') for (const socket of this.sockets) socket.resetAndDestroy();
  }

  async close(): Promise<void> {
    this.releaseHeld();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}

const sleepUntil = (due: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
