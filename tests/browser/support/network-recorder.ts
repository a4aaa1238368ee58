/**
 * Watches every request and response of a browser context (URL, headers, body) for a plaintext
 * that must never cross the network: the world's amounts in each written form, memos, account
 * secrets (plaintext-forms.ts). The dashboard decrypts in the page; if any of these shows up on the
 * wire, it leaked (or was sent) in the clear. Numbers match only between non-digits.
 */
import type { BrowserContext, Request, Response } from "@playwright/test";

export interface Leak {
  readonly where: string;
  readonly url: string;
  readonly plaintext: string;
}

export interface NetworkRecorder {
  /** Adds plaintexts a test made itself (e.g. its own transfers' amounts). */
  watch(plaintexts: readonly string[]): void;
  /**
   * A plaintext the test itself sends on purpose (the send page posts the amount it was given: the
   * service builds the proofs): seen in a request body, it is not counted as a leak.
   */
  expectInRequestBody(plaintext: string): void;
  /** Every leak seen so far, after the body reads in flight have finished. */
  leaks(): Promise<Leak[]>;
  /** What `expectInRequestBody` excused so far (a test checks the recorder did see it). */
  excused(): Promise<Leak[]>;
  /** How many requests were inspected (a recorder that saw nothing proves nothing). */
  requests(): number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const patternOf = (plaintext: string) =>
  /^[0-9.]+$/.test(plaintext)
    ? new RegExp(`(?<![0-9])${escapeRegExp(plaintext)}(?![0-9])`)
    : new RegExp(escapeRegExp(plaintext));

export function recordNetwork(context: BrowserContext, initial: readonly string[]): NetworkRecorder {
  const patterns: { plaintext: string; pattern: RegExp }[] = [];
  const watch = (plaintexts: readonly string[]) => {
    for (const plaintext of plaintexts) {
      if (plaintext.length < 4) throw new Error(`"${plaintext}" is too short to watch without false alarms`);
      patterns.push({ plaintext, pattern: patternOf(plaintext) });
    }
  };
  watch(initial);
  const found: Leak[] = [];
  const expected = new Set<string>();
  const pending: Promise<void>[] = [];
  let seen = 0;
  const scan = (where: string, url: string, text: string | null) => {
    if (text === null || text === "") return;
    for (const { plaintext, pattern } of patterns) {
      if (pattern.test(text)) found.push({ where, url, plaintext });
    }
  };
  const onRequest = async (request: Request) => {
    seen += 1;
    const url = request.url();
    scan("request URL", url, decodeSafely(url));
    scan("request headers", url, JSON.stringify(await request.allHeaders()));
    const body = request.postDataBuffer();
    scan("request body", url, body === null ? null : body.toString("latin1"));
  };
  const onResponse = async (response: Response) => {
    const url = response.url();
    scan("response headers", url, JSON.stringify(await response.allHeaders()));
    // A redirect or an aborted response has no body to read.
    const body = await response.body().catch(() => null);
    scan("response body", url, body === null ? null : body.toString("latin1"));
  };
  context.on("request", (request) => {
    pending.push(onRequest(request).catch(() => {}));
  });
  context.on("response", (response) => {
    pending.push(onResponse(response).catch(() => {}));
  });
  const isExcused = (leak: Leak) => leak.where === "request body" && expected.has(leak.plaintext);
  return {
    watch,
    expectInRequestBody(plaintext) {
      watch([plaintext]);
      expected.add(plaintext);
    },
    async leaks() {
      await Promise.all(pending);
      return found.filter((leak) => !isExcused(leak));
    },
    async excused() {
      await Promise.all(pending);
      return found.filter(isExcused);
    },
    requests: () => seen,
  };
}

function decodeSafely(url: string): string {
  try {
    return `${url} ${decodeURIComponent(url)}`;
  } catch {
    return url;
  }
}
