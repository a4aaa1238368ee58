/**
 * Opens sealed details (a transfer's amount and memo, a hold's amount) with the unlocked
 * viewing keys: one ECDH + AES-GCM each (`@cpay/sdk/sealed`), never a discrete log. The work runs in
 * Web Workers (crypto/open-pool.ts), off the render path: a page of 100 rows paints at once and
 * fills in its amounts as batches arrive. Results are cached per (id, envelope) for the page's life
 * with these keys.
 */
import type { ViewingKeys } from "@cpay/sdk/sealed";
import { useEffect, useState } from "preact/hooks";
import { openMany } from "../crypto/open-pool";
import type { Opened } from "../crypto/open-types";

export type { Opened } from "../crypto/open-types";

export interface SealedItem {
  /** The id the envelope is bound to (`tr_...` or `tx_...`). */
  readonly id: string;
  readonly sealed: string | null | undefined;
}

const cache = new WeakMap<ViewingKeys, Map<string, Opened>>();

function cacheKey(item: SealedItem): string {
  return `${item.id}:${item.sealed ?? ""}`;
}

/** Map from id to what its envelope says; missing while not yet opened (or while locked). */
export function useOpened(
  items: readonly SealedItem[],
  keys: ViewingKeys | null,
): ReadonlyMap<string, Opened> {
  const [, setVersion] = useState(0);
  let results: Map<string, Opened> | null = null;
  if (keys !== null) {
    results = cache.get(keys) ?? new Map<string, Opened>();
    cache.set(keys, results);
  }
  const signature = items.map(cacheKey).join(",");
  useEffect(() => {
    if (keys === null || results === null) return;
    const todo: { key: string; id: string; sealed: string }[] = [];
    for (const item of items) {
      const key = cacheKey(item);
      if (results.has(key)) continue;
      if (item.sealed === null || item.sealed === undefined) results.set(key, { kind: "unsealed" });
      else todo.push({ key, id: item.id, sealed: item.sealed });
    }
    if (todo.length === 0) return;
    return openMany(keys, todo, (batch) => {
      for (const { key, opened } of batch) results.set(key, opened);
      setVersion((version) => version + 1);
    });
  }, [signature, keys]);
  const view = new Map<string, Opened>();
  if (results !== null) {
    for (const item of items) {
      const found = results.get(cacheKey(item));
      if (found !== undefined) view.set(item.id, found);
    }
  }
  return view;
}
