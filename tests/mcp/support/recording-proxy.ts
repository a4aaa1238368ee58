/**
 * An HTTP proxy in front of a world's service that records what passes: each request a process
 * sends (method, path and body) and each answer's body, as text, for a suite's plaintext canary on
 * the wire between a local MCP server and the service. Everything else is passed on as it is.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingProxy {
  readonly url: string;
  /** Every request, as `METHOD /path` and its body. */
  readonly said: string[];
  /** Every answer's body. */
  readonly heard: string[];
  close(): Promise<void>;
}

/** Headers that describe one hop's connection or encoding, not the message: never passed on. */
const HOP_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "content-encoding",
]);

function passedOn(headers: IncomingHttpHeaders | Headers): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(
    entries.flatMap(([name, value]) =>
      HOP_HEADERS.has(name) || value === undefined ? [] : [[name, String(value)]],
    ),
  );
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const said: string[] = [];
  const heard: string[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    said.push(`${request.method} ${request.url}\n${body.toString("utf8")}`);
    try {
      const answer = await fetch(new URL(request.url ?? "/", target), {
        method: request.method ?? "GET",
        headers: passedOn(request.headers),
        ...(body.length === 0 ? {} : { body }),
      });
      const answered = Buffer.from(await answer.arrayBuffer());
      heard.push(answered.toString("utf8"));
      response.writeHead(answer.status, passedOn(answer.headers)).end(answered);
    } catch (error) {
      response.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    said,
    heard,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
