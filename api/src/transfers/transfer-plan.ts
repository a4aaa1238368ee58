/**
 * What a validated transfer request becomes before it is submitted (`TransferPlan`), and what a
 * submission reports back (`Submission`): the transaction that moved the funds, or the one that
 * put an agent's transfer on hold for its owner.
 */
import type { Hold } from "@cpay/sdk/agent-confidential";
import type { AccountOpening } from "./account-opening";
import type { ResolvedAsset } from "./resolve-asset";
import type { Recipient } from "./resolve-recipient";

export interface TransferPlan {
  /** `tr_...`, the API id. */
  readonly id: string;
  /** The id's 16 bytes: the on-chain transfer id (records, receipts, agent events). */
  readonly transferId: Uint8Array;
  /** Base units. Lives only in memory for the length of the request. */
  readonly amount: bigint;
  readonly asset: ResolvedAsset;
  readonly confidential: boolean;
  readonly memo: string | null;
  readonly recipient: Recipient;
  /** Whether the transaction opens the recipient's token account, and the fee the sender pays for it. */
  readonly opening: AccountOpening;
}

export type Submission =
  | {
      readonly outcome: "executed";
      /** The transaction that moved the funds. */
      readonly signature: string;
      /** Every transaction of the transfer, in submission order. */
      readonly signatures: readonly string[];
    }
  | {
      readonly outcome: "held";
      /** The transaction that created the hold. */
      readonly signature: string;
      readonly signatures: readonly string[];
      /** The on-chain hold, as the program wrote it. */
      readonly hold: Hold;
    };
