/**
 * A TCP port free right now on 127.0.0.1. The API must be started on a port the suite knows in
 * advance: its WebAuthn origin (DASHBOARD_ORIGIN, `http://localhost:<port>`) names the port, and a
 * passkey is bound to the origin it was made on. The OS picks the port (never a fixed one); the
 * race with another process taking it before the API binds is the usual, rare one.
 */
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", done);
  });
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === "string") throw new Error("no TCP port was assigned");
  return address.port;
}
