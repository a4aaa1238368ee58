/**
 * Opens sealed details (a transfer's amount and memo, a held transaction's amount) with the unlocked
 * viewing keys: one ECDH + AES-GCM each (`@cpay/sdk/sealed`), never a discrete log. The work runs
 * after render, in slices of a few milliseconds that yield to the browser, so a page of 100 rows
 * paints at once and fills in its amounts as they open. Results are cached per (id, envelope) for
 * the page's life with these keys.
 */
import { isSealedError, openTransferDetails, type ViewingKeys } from "@cpay/sdk/sealed";
import { useEffect, useState } from "preact/hooks";

export type Opened =
  | {
      readonly kind: "opened";
      readonly amount: bigint;
      readonly memo: string | null;
      readonly direction: "sent" | "received" | "self";
    }
  | { readonly kind: "unsealed" }
  | { readonly kind: "not_yours" }
  | { readonly kind: "malformed" };

export interface SealedItem {
  /** The id the envelope is bound to (`tr_...` or `tx_...`). */
  readonly id: string;
  readonly sealed: string | null | undefined;
}

const cache = new WeakMap<ViewingKeys, Map<string, Opened>>();

function openOne(item: SealedItem, keys: ViewingKeys): Opened {
  if (item.sealed === null || item.sealed === undefined) return { kind: "unsealed" };
  try {
    const opened = openTransferDetails({ sealed: item.sealed, viewer: keys, boundTo: item.id });
    return { kind: "opened", amount: opened.amount, memo: opened.memo, direction: opened.direction };
  } catch (error) {
    if (isSealedError(error) && error.code === "not_yours") return { kind: "not_yours" };
    return { kind: "malformed" };
  }
}

/** Map from id to what its envelope says; missing while not yet opened (or while locked). */
export function useOpened(items: readonly SealedItem[], keys: ViewingKeys | null): ReadonlyMap<string, Opened> {
  const [, setVersion] = useState(0);
  const results = keys === null ? null : (cache.get(keys) ?? new Map<string, Opened>());
  if (keys !== null && results !== null && !cache.has(keys)) cache.set(keys, results);
  const signature = items.map((item) => `${item.id}:${item.sealed ?? ""}`).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for the items.
  useEffect(() => {
    if (keys === null || results === null) return;
    let live = true;
    const todo = items.filter((item) => !results.has(`${item.id}:${item.sealed ?? ""}`));
    if (todo.length === 0) return;
    const step = () => {
      if (!live) return;
      const sliceEnd = performance.now() + 8;
      while (todo.length > 0 && performance.now() < sliceEnd) {
        const item = todo.shift() as SealedItem;
        results.set(`${item.id}:${item.sealed ?? ""}`, openOne(item, keys));
      }
      setVersion((version) => version + 1);
      if (todo.length > 0) setTimeout(step, 0);
    };
    setTimeout(step, 0);
    return () => {
      live = false;
    };
  }, [signature, keys]);
  const view = new Map<string, Opened>();
  if (results !== null) {
    for (const item of items) {
      const found = results.get(`${item.id}:${item.sealed ?? ""}`);
      if (found !== undefined) view.set(item.id, found);
    }
  }
  return view;
}
