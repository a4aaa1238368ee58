/**
 * Up to two workers (the machines this runs on have few cores) that open sealed details in
 * parallel; the items are dealt out in halves. Without Worker support the same code runs on the
 * page in small slices. A few items (an approval, a transfer's page) open on the page at once: a
 * few milliseconds each, less than a round trip to a worker. The pool starts at unlock
 * (`warmOpenPool`), so a page of transfers does not wait for the workers' scripts to load.
 */
import { detailsOpenerFor, isSealedError, type ViewingKeys } from "@cpay/sdk/sealed";
import type { Opened, OpenRequest, OpenResponse } from "./open-types";

type Item = OpenRequest["items"][number];
type OnResults = (results: OpenResponse["results"]) => void;

let workers: Worker[] | null = null;
let nextJob = 1;
const jobs = new Map<number, OnResults>();

function pool(): Worker[] {
  if (workers !== null) return workers;
  const size = Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));
  workers = [];
  for (let i = 0; i < size; i++) {
    const worker = new Worker(new URL("./open-worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<OpenResponse>) => {
      const { job, results, done } = event.data;
      jobs.get(job)?.(results);
      if (done) jobs.delete(job);
    };
    workers.push(worker);
  }
  return workers;
}

/** At most this many items open on the page itself rather than in the workers. */
const OPEN_HERE_AT_MOST = 4;

/** Starts the workers (loading their script) before a page needs them; called at unlock. */
export function warmOpenPool(): void {
  if (typeof Worker !== "undefined") pool();
}

function openHere(open: ReturnType<typeof detailsOpenerFor>, item: Item): Opened {
  try {
    const opened = open(item.sealed, item.id);
    return { kind: "opened", amount: opened.amount, memo: opened.memo, direction: opened.direction };
  } catch (error) {
    return isSealedError(error) && error.code === "not_yours" ? { kind: "not_yours" } : { kind: "malformed" };
  }
}

/** Opens `items`, calling `onResults` as batches come; returns a function that stops listening. */
export function openMany(keys: ViewingKeys, items: readonly Item[], onResults: OnResults): () => void {
  if (items.length === 0) return () => undefined;
  if (typeof Worker === "undefined" || items.length <= OPEN_HERE_AT_MOST) {
    const open = detailsOpenerFor(keys);
    let live = true;
    const todo = [...items];
    const step = () => {
      if (!live) return;
      const results: OpenResponse["results"] = [];
      const sliceEnd = performance.now() + 30;
      while (todo.length > 0 && performance.now() < sliceEnd) {
        const item = todo.shift() as Item;
        results.push({ key: item.key, opened: openHere(open, item) });
      }
      onResults(results);
      if (todo.length > 0) setTimeout(step, 0);
    };
    queueMicrotask(step);
    return () => {
      live = false;
    };
  }
  const all = pool();
  const started: number[] = [];
  const share = Math.ceil(items.length / all.length);
  all.forEach((worker, index) => {
    const slice = items.slice(index * share, (index + 1) * share);
    if (slice.length === 0) return;
    const job = nextJob++;
    jobs.set(job, onResults);
    started.push(job);
    worker.postMessage({ job, keys, items: slice } satisfies OpenRequest);
  });
  return () => {
    for (const job of started) jobs.delete(job);
  };
}
