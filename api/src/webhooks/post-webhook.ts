/**
 * One HTTP POST of a delivery, to an address the URL policy approved (connecting to the checked
 * address, not to whatever a second DNS lookup says), with the TLS name and Host header of the
 * URL, a 10 s time-out, and no redirects (a 3xx is a failed attempt). Resolves to the status code,
 * or to an error text when no response came; never throws.
 */

import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";

export const DELIVERY_TIMEOUT_MS = 10_000;

export function postWebhook(input: {
  readonly url: URL;
  readonly address: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}): Promise<{ readonly statusCode: number | null; readonly error: string | null }> {
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
  return new Promise((resolve) => {
    const request = send(
      input.url,
      {
        method: "POST",
        lookup: pinned,
        timeout: DELIVERY_TIMEOUT_MS,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(input.body),
          ...input.headers,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ statusCode: response.statusCode ?? null, error: null }));
        response.on("error", () => resolve({ statusCode: response.statusCode ?? null, error: null }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", (error) => resolve({ statusCode: null, error: error.message.slice(0, 200) }));
    request.end(input.body);
  });
}
