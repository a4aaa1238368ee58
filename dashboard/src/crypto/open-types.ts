/** Messages between the page and the sealed-details workers (open-pool.ts, open-worker.ts). */
import type { ViewingKeys } from "@cpay/sdk/sealed";

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

export interface OpenRequest {
  readonly job: number;
  readonly keys: ViewingKeys;
  /** `key` is the caller's cache key; `id` the resource the envelope is bound to. */
  readonly items: readonly { readonly key: string; readonly id: string; readonly sealed: string }[];
}

export interface OpenResponse {
  readonly job: number;
  readonly results: { readonly key: string; readonly opened: Opened }[];
  readonly done: boolean;
}
