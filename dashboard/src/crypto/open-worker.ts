/**
 * A Web Worker that opens sealed details (one ECDH + AES-GCM each) away from the page's main thread,
 * so a page of 100 transfers stays responsive while its amounts open. It receives the viewing keys
 * from the page (same origin, same tab: they never leave the browser) and answers in batches.
 */
import { detailsOpenerFor, isSealedError } from "@cpay/sdk/sealed";
import type { Opened, OpenRequest, OpenResponse } from "./open-types";

type Opener = ReturnType<typeof detailsOpenerFor>;

function openOne(open: Opener, id: string, sealed: string): Opened {
  try {
    const opened = open(sealed, id);
    return { kind: "opened", amount: opened.amount, memo: opened.memo, direction: opened.direction };
  } catch (error) {
    return isSealedError(error) && error.code === "not_yours" ? { kind: "not_yours" } : { kind: "malformed" };
  }
}

const BATCH = 10;

self.onmessage = (event: MessageEvent<OpenRequest>) => {
  const { job, keys, items } = event.data;
  // One opener per job: each counterparty's shared point is computed once for the whole page.
  const open = detailsOpenerFor(keys);
  let batch: OpenResponse["results"] = [];
  for (const item of items) {
    batch.push({ key: item.key, opened: openOne(open, item.id, item.sealed) });
    if (batch.length === BATCH) {
      self.postMessage({ job, results: batch, done: false } satisfies OpenResponse);
      batch = [];
    }
  }
  self.postMessage({ job, results: batch, done: true } satisfies OpenResponse);
};
