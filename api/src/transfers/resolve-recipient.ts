/**
 * Who a transfer goes to (spec 4.1 `to`): an `@handle` of an account of this service (`@bob`, or an
 * agent `@owner/name`) or a base58 Solana address. A handle is normalised the way the program
 * normalises it (sdk `normalizeHandle`) and looked up in the `accounts` table; the wallet that
 * receives is the account's public key (for an agent, its PDA, which owns its token accounts).
 *
 * Refusals: a malformed handle or address is `400 invalid_request` naming `to`; an unknown handle
 * `404 recipient_not_found`; paying yourself `400 invalid_request` naming `to`.
 */

import type { AccountRow } from "@cpay/ledger";
import { HandleValidationError, normalizeHandle } from "@cpay/sdk";
import { type Address, address, isAddress } from "@solana/kit";
import { eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

export interface Recipient {
  /** The recipient exactly as the request gave it (what the API shows back as `to`). */
  readonly to: string;
  /** The wallet whose token account receives. */
  readonly wallet: Address;
  /** The normalised handle without `@` (`bob`, `acme/bot`) when `to` is a handle, else null. */
  readonly handle: string | null;
  /** The service's account behind a handle, else null. */
  readonly account: AccountRow | null;
}

/** Resolves `to` for a transfer sent by `sender`. */
export async function resolveRecipient(
  service: ServiceContext,
  sender: AccountRow,
  to: string,
): Promise<Recipient> {
  const recipient = to.trim().startsWith("@")
    ? await byHandle(service, to)
    : { to, wallet: byAddress(to), handle: null, account: null };
  if (recipient.wallet === sender.publicKey) {
    throw new ApiError(
      "invalid_request",
      "to: a transfer to the sending account itself is not allowed",
      "to",
    );
  }
  return recipient;
}

async function byHandle(service: ServiceContext, to: string): Promise<Recipient> {
  let handle: string;
  try {
    handle = normalizeHandle(to);
  } catch (error) {
    if (!(error instanceof HandleValidationError)) throw error;
    throw new ApiError(
      "invalid_request",
      "to: not a valid @handle (letters, digits, `_`, `-` and `.`; an agent is `@owner/name`)",
      "to",
    );
  }
  const { accounts } = service.db.tables;
  const [account] = await service.db.read((db) =>
    db
      .select()
      .from(accounts)
      .where(eq(accounts.handle, `@${handle}`)),
  );
  if (account === undefined) {
    throw new ApiError("recipient_not_found", `no account has the handle @${handle}`, "to");
  }
  return { to, wallet: address(account.publicKey), handle, account };
}

function byAddress(to: string): Address {
  if (!isAddress(to)) {
    throw new ApiError("invalid_request", "to: must be an @handle or a base58 Solana address", "to");
  }
  return to;
}
