/**
 * Who the agent pays: a base58 address as given, or an `@handle` resolved the way the program
 * resolves it, from the handle's account on-chain (`["handle", sha256(handle)]` holds the wallet).
 * The handle goes along, so a policy that allows recipients by name (`acme`, `*.acme`) can check it.
 */
import { findHandlePda, getHandleDecoder, HANDLE_DISCRIMINATOR } from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import { type Address, address, isAddress } from "@solana/kit";

export interface Recipient {
  readonly recipient: Address;
  readonly recipientHandle?: string;
}

export async function resolveRecipient(chain: ChainPort, text: string): Promise<Recipient> {
  if (!text.startsWith("@")) {
    if (!isAddress(text)) throw new Error(`not a recipient: ${text} (an @handle or a base58 address)`);
    return { recipient: address(text) };
  }
  const handle = text.slice(1);
  const [pda] = await findHandlePda({ handle }, { programAddress: address(chain.programId) });
  const account = await chain.getAccount(pda, "confirmed");
  const discriminator = account?.data.subarray(0, HANDLE_DISCRIMINATOR.length);
  if (
    account === null ||
    account.owner !== chain.programId ||
    !sameBytes(discriminator, HANDLE_DISCRIMINATOR)
  ) {
    throw new Error(`no account has the handle ${text}`);
  }
  return { recipient: getHandleDecoder().decode(account.data).wallet, recipientHandle: handle };
}

function sameBytes(a: ArrayLike<number> | undefined, b: ArrayLike<number>): boolean {
  return a !== undefined && a.length === b.length && Array.from(a).every((byte, index) => byte === b[index]);
}
