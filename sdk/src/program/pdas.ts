/**
 * Program-derived addresses of the agent-policy program (README "Accounts"). Config, policy and
 * receipt seeds are expressible in the IDL, so Codama generated their finders (re-exported here);
 * the handle and agent seeds hash a normalised handle, which the IDL cannot say, and the pending
 * seed reads a counter from the agent account: those are written here.
 *
 * | account | seeds |
 * |---|---|
 * | Config | `"config"` |
 * | Handle | `"handle", sha256(normalised handle)` |
 * | Agent | `"agent", sha256(normalised agent handle)` |
 * | Policy | `"policy", agent` |
 * | PendingTransaction | `"pending", agent, nonce as u64 little-endian` |
 * | Receipt | `"receipt", sender, transfer id (16 bytes)` |
 * | ProgramData (loader) | `program id`, under the BPF Upgradeable Loader |
 */
import {
  type Address,
  getAddressEncoder,
  getProgramDerivedAddress,
  getU64Encoder,
  getUtf8Encoder,
  type ProgramDerivedAddress,
  type ReadonlyUint8Array,
} from "@solana/kit";
import { AGENT_POLICY_PROGRAM_ADDRESS, findReceiptPda as findReceiptPdaUnchecked } from "../generated";
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "../program/upgradeable-loader";
import { normalizeAgentHandle, normalizeHandle } from "./handles";

export { findConfigPda, findPolicyPda } from "../generated";

/** Transfer ids are 16 bytes (a UUID's worth): the receipt seed and the events carry exactly that. */
export const TRANSFER_ID_BYTES = 16;

/** Where a finder derives from: the program id, the deployed agent-policy program by default. */
export interface PdaConfig {
  readonly programAddress?: Address;
}

/** The agent-policy program's address of `seeds`, under `config.programAddress` (or the deployed id). */
function agentPolicyPda(
  config: PdaConfig,
  seeds: readonly (string | ReadonlyUint8Array)[],
): Promise<ProgramDerivedAddress> {
  return getProgramDerivedAddress({
    programAddress: config.programAddress ?? AGENT_POLICY_PROGRAM_ADDRESS,
    seeds: [...seeds],
  });
}

/**
 * sha256 of the normalised handle's bytes, the seed of Handle and Agent PDAs and the Agent's
 * `handle_hash`. Normalises first (`@Acme` and `acme` hash alike) and throws a
 * `HandleValidationError` for a handle outside the grammar. Uses WebCrypto, so it is async.
 */
export async function handleHash(handle: string): Promise<Uint8Array> {
  const bytes = getUtf8Encoder().encode(normalizeHandle(handle));
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
}

/** The Handle PDA of an account or agent handle: `["handle", sha256(normalised handle)]`. */
export async function findHandlePda(
  seeds: { readonly handle: string },
  config: PdaConfig = {},
): Promise<ProgramDerivedAddress> {
  return agentPolicyPda(config, ["handle", await handleHash(seeds.handle)]);
}

/** The Handle PDA of a transfer's recipient handle; undefined when it names none (an address). */
export async function findOptionalHandlePda(
  handle: string | undefined,
  config: PdaConfig = {},
): Promise<Address | undefined> {
  return handle === undefined ? undefined : (await findHandlePda({ handle }, config))[0];
}

/**
 * The Agent PDA (the agent's `public_key`, owner of its token accounts):
 * `["agent", sha256(normalised "owner/name")]`. Throws a `HandleValidationError` unless
 * `agentHandle` is an agent handle.
 */
export async function findAgentPda(
  seeds: { readonly agentHandle: string },
  config: PdaConfig = {},
): Promise<ProgramDerivedAddress> {
  return agentPolicyPda(config, ["agent", await handleHash(normalizeAgentHandle(seeds.agentHandle))]);
}

/**
 * The PendingTransaction PDA of a hold: `["pending", agent, nonce u64 LE]`. A new hold takes the
 * agent account's current `nextHoldNonce`.
 */
export async function findPendingTransactionPda(
  seeds: { readonly agent: Address; readonly nonce: bigint | number },
  config: PdaConfig = {},
): Promise<ProgramDerivedAddress> {
  return agentPolicyPda(config, [
    "pending",
    getAddressEncoder().encode(seeds.agent),
    getU64Encoder().encode(seeds.nonce),
  ]);
}

/**
 * Checks a transfer id is exactly 16 bytes. The generated codecs would silently pad or cut any
 * other length, so builders call this before a transfer id reaches them.
 */
export function assertTransferId(transferId: ReadonlyUint8Array): void {
  if (transferId.length !== TRANSFER_ID_BYTES) {
    throw new RangeError(`a transfer id is ${TRANSFER_ID_BYTES} bytes, got ${transferId.length}`);
  }
}

/**
 * The Receipt PDA of a sender's transfer id: `["receipt", sender, transfer_id]` (the sender is in the
 * seeds so nobody else can record a transfer id first); refuses ids that are not 16 bytes.
 */
export async function findReceiptPda(
  seeds: { readonly sender: Address; readonly transferId: ReadonlyUint8Array },
  config: PdaConfig = {},
): Promise<ProgramDerivedAddress> {
  assertTransferId(seeds.transferId);
  return findReceiptPdaUnchecked({ sender: seeds.sender, transferId: seeds.transferId }, config);
}

/** The upgradeable loader's ProgramData account of the program: `[program id]` under the loader. */
export async function findProgramDataPda(config: PdaConfig = {}): Promise<ProgramDerivedAddress> {
  return getProgramDerivedAddress({
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    seeds: [getAddressEncoder().encode(config.programAddress ?? AGENT_POLICY_PROGRAM_ADDRESS)],
  });
}
