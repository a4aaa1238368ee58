/**
 * A loopback TCP proxy that counts its open connections: put in front of a server, it shows whether a
 * client really let go of its sockets (a closed WebSocket, not just an aborted subscription), which
 * the server under test does not expose.
 */
import { connect, createServer, type Socket } from "node:net";

export interface CountingProxy {
  /** The proxy's loopback port; connections are forwarded to the target port. */
  readonly port: number;
  /** Client connections open now. */
  readonly open: number;
  /** Client connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `127.0.0.1:targetPort`. */
export async function startCountingProxy(targetPort: number): Promise<CountingProxy> {
  const clients = new Set<Socket>();
  const upstreams = new Set<Socket>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted += 1;
    const upstream = connect(targetPort, "127.0.0.1");
    clients.add(client);
    upstreams.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.on("close", () => clients.delete(client));
    upstream.on("close", () => upstreams.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    get open() {
      return clients.size;
    },
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...clients, ...upstreams]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
