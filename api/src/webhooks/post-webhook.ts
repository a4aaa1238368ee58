/**
 * One HTTP POST of a delivery, to an address the URL policy approved (connecting to the checked
 * address, not to whatever a second DNS lookup says), with the TLS name and Host header of the
 * URL and no redirects (a 3xx is a failed attempt). The attempt is bounded whatever the receiver
 * does: one absolute deadline covers connect, response headers and body (a timer, not the socket's
 * idle time-out, which a receiver trickling a byte at a time never trips), response headers are
 * capped by `maxHeaderSize` and the body at `maxResponseBytes`. An attempt succeeds only with a
 * complete answer inside both bounds.
 *
 * Resolves to the status code, or to one of a few fixed error codes — never the socket's own
 * message, which can name internal addresses and ports; never throws.
 */

import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";

/** Default absolute time for one attempt, connect to last body byte. */
export const DELIVERY_DEADLINE_MS = 10_000;
/** Default cap on the response body read from a receiver (it is discarded). */
export const MAX_RESPONSE_BYTES = 65_536;
/** Cap on the response head (status line and headers). */
const MAX_RESPONSE_HEADER_BYTES = 8_192;

/** What the delivery log records for an attempt without a usable answer. */
export type AttemptError = "timeout" | "response_too_large" | "connection_failed";

export interface AttemptOutcome {
  readonly statusCode: number | null;
  readonly error: AttemptError | "url_refused" | null;
}

export function postWebhook(input: {
  readonly url: URL;
  readonly address: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly deadlineMs?: number;
  readonly maxResponseBytes?: number;
}): Promise<AttemptOutcome> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const family = input.address.includes(":") ? 6 : 4;
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: input.address, family },
      ]);
    } else {
      callback(null, input.address, family);
    }
  };
  const send = input.url.protocol === "https:" ? httpsRequest : httpRequest;
  const maxResponseBytes = input.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(outcome);
    };
    const request = send(
      input.url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(input.body),
          ...input.headers,
        },
      },
      (response) => {
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxResponseBytes) settle({ statusCode: null, error: "response_too_large" });
        });
        response.on("end", () => settle({ statusCode: response.statusCode ?? null, error: null }));
        response.on("error", () => settle({ statusCode: null, error: "connection_failed" }));
      },
    );
    const deadline = setTimeout(
      () => settle({ statusCode: null, error: "timeout" }),
      input.deadlineMs ?? DELIVERY_DEADLINE_MS,
    );
    request.on("error", (error: NodeJS.ErrnoException) =>
      settle({
        statusCode: null,
        error: error.code === "HPE_HEADER_OVERFLOW" ? "response_too_large" : "connection_failed",
      }),
    );
    request.end(input.body);
  });
}
