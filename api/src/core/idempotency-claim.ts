/**
 * What a use case that creates a resource receives from a request's `Idempotency-Key`: the HTTP door
 * claims the key (http/idempotency.ts) and hands the use case this claim, so the resource's row and
 * the key's binding can be written together and an interrupted run can be resumed. A use case
 * called without a key gets null.
 */
import type { Db } from "@cpay/ledger/database";

export interface IdempotencyClaim {
  /**
   * The resource an earlier, interrupted run of this very request bound (its claim was recovered
   * and the use case is resumable): finish that one rather than make another. Null otherwise.
   */
  readonly resumedResourceId: string | null;
  /**
   * Names the resource this request creates, before it touches the chain. `resumable`: a 5xx after
   * this does not freeze the key; the retry runs the use case again with `resumedResourceId`.
   */
  bindResource(resourceId: string, options?: { readonly resumable?: boolean }): Promise<void>;
  /**
   * `bindResource` inside the caller's database transaction, so the resource's row and the key's
   * binding are written together: a crash between two writes would leave a row the key does not
   * name, and the retry would create a second resource for the same key.
   */
  bindResourceIn(tx: Db, resourceId: string, options?: { readonly resumable?: boolean }): Promise<void>;
}
