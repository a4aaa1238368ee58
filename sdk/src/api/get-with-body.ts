/**
 * A GET with a JSON body, answered as a fetch `Response`. The balance read takes its decryption
 * proof in the GET body (the spec), which fetch refuses to send, and the proof must not travel in a
 * header instead (it carries the amount, and headers get logged), so this one request goes through
 * node:http / node:https.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export function getWithBody(url: URL, headers: Record<string, string>, body: string): Promise<Response> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: "GET",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
        },
      },
      (incoming: IncomingMessage) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("error", reject);
        incoming.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === "string") answerHeaders.set(name, value);
            else if (Array.isArray(value)) for (const item of value) answerHeaders.append(name, item);
          }
          resolve(
            new Response(Buffer.concat(chunks), {
              status: incoming.statusCode ?? 0,
              headers: answerHeaders,
            }),
          );
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
