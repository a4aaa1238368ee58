/**
 * Test support: a bare WebSocket JSON-RPC client, for what kit's subscription client hides on
 * purpose (subscription ids, raw error objects, malformed frames). Not exported from the package.
 */
import WebSocket from "ws";

export interface RawSocket {
  /** Sends text as is (so tests can send garbage). */
  sendText(text: string): void;
  /** Sends a JSON-RPC request and resolves with the response carrying its id. */
  request(method: string, params?: unknown[]): Promise<Record<string, unknown>>;
  /** Resolves with the next message (already received or future) that `match` accepts. */
  next(
    match: (message: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  close(): void;
}

export async function openRawSocket(url: string): Promise<RawSocket> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const received: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  socket.on("message", (data) => {
    received.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const wake of [...waiters]) wake();
  });
  let nextId = 1;

  const next: RawSocket["next"] = (match, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const index = received.findIndex(match);
        if (index < 0) return false;
        const [message] = received.splice(index, 1);
        waiters.delete(check);
        clearTimeout(timer);
        resolve(message as Record<string, unknown>);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(received)}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  return {
    sendText: (text) => socket.send(text),
    request(method, params) {
      const id = nextId++;
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      return next((message) => message.id === id);
    },
    next,
    close: () => socket.close(),
  };
}
