/**
 * How a self-custody agent reaches the service's relay: the agent signs its part of every
 * transaction and leaves the fee payer's signature slot empty; the relay checks it, co-signs as
 * fee payer and submits. The agent never holds SOL. `@cpay/sdk/api`'s `GET /v1/relay` and
 * `POST /v1/relay` are one implementation (over HTTP); tests use an in-process one.
 */
import type { Address } from "@solana/kit";

/** What the relay answered for one `submit`. */
export interface RelaySubmission {
  /** One per submitted transaction, in order. */
  readonly signatures: readonly string[];
  /**
   * The service's answer for the transfer the transactions carry (the shape of `POST /v1/transfers`'
   * response), or null when they carry none (e.g. proof-context setup, clean-up).
   */
  readonly transfer: unknown | null;
}

export interface RelayTransport {
  /** The fee payer to name in every transaction, and a recent blockhash. */
  info(): Promise<{
    readonly feePayer: Address;
    readonly blockhash: string;
    readonly lastValidBlockHeight: bigint;
    /** The agent's owner's ElGamal key, when the relay names it: what a hold's amount is sealed to. */
    readonly ownerElgamalPubkey?: Uint8Array | null;
  }>;
  /**
   * Submits agent-signed transactions (fee payer's signature slot empty) in order; each lands
   * before the next is checked. Resolves with their signatures and the service's answer for a
   * transfer (the shape of POST /v1/transfers' response, or null when the transactions carry no
   * transfer, e.g. proof-context setup). Rejects with the service's error. `sealedAmount` (base64,
   * sealed-hold.ts) is what the agent states to its owner, kept only if the transactions hold.
   */
  submit(
    transactions: readonly Uint8Array[],
    options?: { readonly sealedAmount?: string },
  ): Promise<RelaySubmission>;
}
