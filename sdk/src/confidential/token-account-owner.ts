/**
 * Who a token account belongs to: a Token-2022 account's data starts with the mint (32 bytes)
 * and the owner (32 bytes). From the raw account (any chain source: the cluster port, RPC), so the
 * indexer and the relay map a transfer's destination token account to the wallet (or agent PDA)
 * that owns it, and so to the service account that received it.
 */
import { getAddressDecoder } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";

const OWNER_OFFSET = 32;
const OWNER_END = 64;
/** The base account's length; extensions follow an account-type byte at this offset. */
const ACCOUNT_LENGTH = 165;
const MULTISIG_LENGTH = 355;
const STATE_OFFSET = 108;
const ACCOUNT_TYPE_ACCOUNT = 2;

/**
 * The owner of a token account given its program owner and data; null if it is not an initialised
 * token account (a mint and a multisig are Token-2022 accounts too, with other bytes at 32..64).
 */
export function tokenAccountOwnerOf(programOwner: string, data: Uint8Array): string | null {
  if (programOwner !== TOKEN_2022_PROGRAM_ADDRESS) return null;
  if (data.length < ACCOUNT_LENGTH || data.length === MULTISIG_LENGTH) return null;
  if (data.length > ACCOUNT_LENGTH && data[ACCOUNT_LENGTH] !== ACCOUNT_TYPE_ACCOUNT) return null;
  if (data[STATE_OFFSET] === 0) return null;
  return getAddressDecoder().decode(data.subarray(OWNER_OFFSET, OWNER_END));
}
