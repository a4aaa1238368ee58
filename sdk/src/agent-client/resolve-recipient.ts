/**
 * Who a self-custody agent pays: a base58 address as given, or an `@handle` resolved the way the
 * program resolves it, from the handle's account on-chain (`["handle", sha256(handle)]` holds the
 * wallet). The normalised handle goes along, so a policy that allows recipients by name (`acme`,
 * `*.acme`) can check it.
 */
import { type Address, address, isAddress } from "@solana/kit";
import { resolveRecipientWallet } from "../agent-confidential/agent-account";
import type { ChainPort } from "../chain/chain-port";
import { isConfidentialError } from "../confidential/errors";
import { HandleValidationError, normalizeHandle } from "../program/handles";

export interface ResolvedRecipient {
  readonly recipient: Address;
  /** The normalised handle without `@`, when the recipient was named by one. */
  readonly recipientHandle?: string;
}

/** A recipient that is not an address, not a handle, or a handle nobody holds. */
export class RecipientNotFoundError extends Error {
  override readonly name = "RecipientNotFoundError";
}

/** `text` (`@handle`, `@owner/agent` or a base58 address) -> the wallet to pay. */
export async function resolveRecipient(chain: ChainPort, text: string): Promise<ResolvedRecipient> {
  if (!text.startsWith("@")) {
    if (!isAddress(text)) {
      throw new RecipientNotFoundError(`not a recipient: ${text} (an @handle or a base58 address)`);
    }
    return { recipient: address(text) };
  }
  let handle: string;
  try {
    handle = normalizeHandle(text);
  } catch (error) {
    if (error instanceof HandleValidationError) throw new RecipientNotFoundError(`not a handle: ${text}`);
    throw error;
  }
  try {
    return { recipient: await resolveRecipientWallet(chain, handle), recipientHandle: handle };
  } catch (error) {
    if (isConfidentialError(error, "recipient_not_confidential_ready")) {
      throw new RecipientNotFoundError(`no account has the handle ${text}`);
    }
    throw error;
  }
}
