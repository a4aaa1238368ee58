/**
 * An x402 v2 `exact` requirement on a Solana network, read at the trust boundary: the 402 comes
 * from whatever server the agent fetched, so every field is checked before anything is built from
 * it. The fields, as `@x402/svm`'s exact scheme defines them: `payTo` (the wallet whose associated
 * token account receives), `asset` (the mint), `amount` (base units, a decimal integer string),
 * `extra.feePayer` (the facilitator's signer, which pays the fee and signs last), `extra.memo`
 * (optional: exactly this text in one Memo instruction) and, optionally, `extra.recentBlockhash` /
 * `extra.lastValidBlockHeight` (the blockhash the server wants the payment signed with).
 */
import { type Address, getBase58Encoder, isAddress } from "@solana/kit";
import type { PaymentRequirements } from "@x402/core/types";
import { MAX_MEMO_BYTES } from "@x402/svm";
import { U64_MAX } from "../program/amounts";
import { unpayable } from "./x402-errors";

export interface ExactSvmRequirement {
  readonly payTo: Address;
  readonly mint: Address;
  /** Base units, > 0. */
  readonly amount: bigint;
  readonly feePayer: Address;
  /** The memo the requirement asks for; null: none. */
  readonly memo: string | null;
  /** The server's blockhash to sign with; null: the payer reads the cluster's latest. */
  readonly blockhash: { readonly blockhash: string; readonly lastValidBlockHeight: bigint } | null;
}

const BLOCKHASH_BYTES = 32;

/**
 * `requirements` as an `exact` payment on `network` (the agent's cluster, x402-network.ts); throws
 * `unpayable_requirement` naming the first field that does not fit.
 */
export function readExactRequirement(
  requirements: PaymentRequirements,
  network: string,
): ExactSvmRequirement {
  if (requirements.scheme !== "exact") {
    throw unpayable("scheme", `the scheme is ${requirements.scheme}; this payer pays "exact" only`);
  }
  if (requirements.network !== network) {
    throw unpayable(
      "network",
      `the payment is on ${requirements.network}; this agent's cluster is ${network}`,
    );
  }
  const extra = requirements.extra ?? {};
  return {
    payTo: addressField("payTo", requirements.payTo),
    mint: addressField("asset", requirements.asset),
    amount: amountOf(requirements.amount),
    feePayer: addressField("extra.feePayer", extra.feePayer),
    memo: memoOf(extra.memo),
    blockhash: blockhashOf(extra.recentBlockhash, extra.lastValidBlockHeight),
  };
}

function addressField(param: string, value: unknown): Address {
  if (typeof value !== "string" || !isAddress(value))
    throw unpayable(param, `${param} is not a Solana address`);
  return value;
}

function amountOf(value: unknown): bigint {
  if (typeof value !== "string" || !/^[0-9]{1,20}$/.test(value)) {
    throw unpayable("amount", "amount is not a whole number of base units");
  }
  const amount = BigInt(value);
  if (amount === 0n || amount > U64_MAX)
    throw unpayable("amount", "amount must be above 0 and fit in 64 bits");
  return amount;
}

function memoOf(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string") throw unpayable("extra.memo", "extra.memo is not text");
  if (new TextEncoder().encode(value).length > MAX_MEMO_BYTES) {
    throw unpayable("extra.memo", `extra.memo is longer than ${MAX_MEMO_BYTES} bytes`);
  }
  return value;
}

/** The server's blockhash, as `@x402/svm`'s own client reads it: ignored unless well formed. */
function blockhashOf(blockhash: unknown, lastValid: unknown): ExactSvmRequirement["blockhash"] {
  if (typeof blockhash !== "string" || blockhash === "") return null;
  try {
    if (getBase58Encoder().encode(blockhash).length !== BLOCKHASH_BYTES) return null;
  } catch {
    return null;
  }
  const height =
    typeof lastValid === "string" && /^[0-9]+$/.test(lastValid)
      ? BigInt(lastValid)
      : typeof lastValid === "number" && Number.isSafeInteger(lastValid) && lastValid >= 0
        ? BigInt(lastValid)
        : 0n;
  return { blockhash, lastValidBlockHeight: height };
}
