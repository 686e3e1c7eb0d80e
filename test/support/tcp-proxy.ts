import { AddressInfo, connect, createServer, NetConnectOpts, Server, Socket } from 'node:net';

/**
 * A TCP proxy for fault tests: forwards 127.0.0.1:<port> to `upstream` and can delay what the
 * upstream answers (latency). Data keeps its order; `close()` ends every connection.
 */
export class TcpProxy {
  latencyMs = 0;
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(upstream: NetConnectOpts): Promise<TcpProxy> {
    const proxy: TcpProxy = new TcpProxy(
      createServer((client) => {
        const server = connect(upstream);
        proxy.track(client);
        proxy.track(server);
        client.on('data', (chunk) => server.write(chunk));
        let delivered = Promise.resolve();
        server.on('data', (chunk) => {
          const due = Date.now() + proxy.latencyMs;
          delivered = delivered.then(() => sleepUntil(due)).then(() => void client.write(chunk));
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

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
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
