/**
 * One builder per flow of the agent-policy program, on top of the generated client: each derives
 * the PDAs (README "Accounts"), normalises handles, converts API units (policy-codec) and leaves
 * optional accounts to the generated client, which passes the program id for "none" (Anchor's
 * convention). They return the generated instruction types, ready for a transaction message.
 */
import type { Address, ReadonlyUint8Array, TransactionSigner } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  getAgentCreateInstruction,
  getAgentTransferInstruction,
  getConfigInitializeInstruction,
  getHandleRegisterInstruction,
  getPendingApproveInstruction,
  getPendingCloseExpiredInstruction,
  getPendingRejectInstruction,
  getPolicyUpdateInstruction,
  getReceiptCloseInstruction,
  getTransferRecordInstruction,
  type PendingTransaction,
} from "../generated";
import { normalizeAccountHandle, normalizeAgentName } from "./handles";
import {
  assertTransferId,
  findAgentPda,
  findConfigPda,
  findHandlePda,
  findOptionalHandlePda,
  findPendingTransactionPda,
  findPolicyPda,
  findProgramDataPda,
  findReceiptPda,
} from "./pdas";
import {
  encodeSpendPolicy,
  encodeSpendPolicyUpdate,
  type PolicyCodecOptions,
  type SpendPolicyInput,
  type SpendPolicyUpdateInput,
} from "./policy-codec";

/** Handle kinds as the program stores them; only personal and business are registered directly. */
export const HANDLE_KIND = { personal: 0, business: 1, agent: 2 } as const;
export type HandleKind = keyof typeof HANDLE_KIND;

/** The longest memo `transfer_record` accepts, in bytes. */
export const MAX_MEMO_BYTES = 256;

/**
 * Slots a Receipt must exist before `receipt_close` accepts it (the program's
 * `receipt_close::MIN_AGE_SLOTS`): its record final and every signed copy of its transfer expired.
 */
export const RECEIPT_MIN_AGE_SLOTS = 1_000n;

/** Every builder takes the program id, the deployed agent-policy program by default. */
export interface ProgramConfig {
  readonly programAddress?: Address;
}

function programOf(config: ProgramConfig): { programAddress: Address } {
  return { programAddress: config.programAddress ?? AGENT_POLICY_PROGRAM_ADDRESS };
}

/**
 * `config_initialize`: creates the config PDA naming `registrar`, signed and paid by `admin`, who
 * must be the program's upgrade authority (its ProgramData account is derived here).
 */
export async function buildConfigInitializeInstruction(
  input: { readonly admin: TransactionSigner; readonly registrar: Address } & ProgramConfig,
) {
  const config = programOf(input);
  const [configPda] = await findConfigPda(config);
  const [programData] = await findProgramDataPda(config);
  return getConfigInitializeInstruction(
    { config: configPda, admin: input.admin, programData, registrar: input.registrar },
    config,
  );
}

/**
 * `handle_register`: registers an account handle (normalised here; `HandleValidationError` if it
 * cannot be) for `wallet`, as a personal or business handle. Signed by the config's registrar;
 * `payer` pays the Handle account's rent.
 */
export async function buildHandleRegisterInstruction(
  input: {
    readonly registrar: TransactionSigner;
    readonly payer: TransactionSigner;
    readonly handle: string;
    readonly kind: Exclude<HandleKind, "agent">;
    readonly wallet: Address;
  } & ProgramConfig,
) {
  const config = programOf(input);
  const handle = normalizeAccountHandle(input.handle);
  const [configPda] = await findConfigPda(config);
  const [handlePda] = await findHandlePda({ handle }, config);
  return getHandleRegisterInstruction(
    {
      config: configPda,
      registrar: input.registrar,
      payer: input.payer,
      handle: handlePda,
      handleArg: handle,
      kind: HANDLE_KIND[input.kind],
      wallet: input.wallet,
    },
    config,
  );
}

/**
 * `agent_create`: creates the agent `<ownerHandle>/<name>` (both normalised), its policy from API
 * units (`encodeSpendPolicy`: `PolicyValidationError` on bad input) and its agent Handle. `owner`
 * must be the wallet of `ownerHandle`; `agentSigner` initiates spends and must not be the owner.
 * Returns the instruction and the agent's address (its `public_key`).
 */
export async function buildAgentCreateInstruction(
  input: {
    readonly owner: TransactionSigner;
    readonly ownerHandle: string;
    readonly name: string;
    readonly agentSigner: Address;
    readonly policy: SpendPolicyInput;
    readonly payer: TransactionSigner;
  } & PolicyCodecOptions &
    ProgramConfig,
) {
  const config = programOf(input);
  const ownerHandle = normalizeAccountHandle(input.ownerHandle);
  const name = normalizeAgentName(input.name);
  const agentHandle = `${ownerHandle}/${name}`;
  const policyArg = encodeSpendPolicy(input.policy, input);
  const [ownerHandlePda] = await findHandlePda({ handle: ownerHandle }, config);
  const [agent] = await findAgentPda({ agentHandle }, config);
  const [policy] = await findPolicyPda({ agent }, config);
  const [agentHandlePda] = await findHandlePda({ handle: agentHandle }, config);
  const instruction = getAgentCreateInstruction(
    {
      owner: input.owner,
      ownerHandle: ownerHandlePda,
      agent,
      policy,
      agentHandle: agentHandlePda,
      payer: input.payer,
      name,
      agentSigner: input.agentSigner,
      policyArg,
    },
    config,
  );
  return { instruction, agent, policy, agentHandle };
}

/**
 * `policy_update`: changes the fields present in `update` (API units, `encodeSpendPolicyUpdate`),
 * signed by the agent's owner.
 */
export async function buildPolicyUpdateInstruction(
  input: {
    readonly owner: TransactionSigner;
    readonly agent: Address;
    readonly update: SpendPolicyUpdateInput;
  } & PolicyCodecOptions &
    ProgramConfig,
) {
  const config = programOf(input);
  const update = encodeSpendPolicyUpdate(input.update, input);
  const [policy] = await findPolicyPda({ agent: input.agent }, config);
  return getPolicyUpdateInstruction({ owner: input.owner, agent: input.agent, policy, update }, config);
}

/**
 * `agent_transfer`: a spend of `amount` base units by the agent signer, executed at once or held
 * for approval above the HITL threshold. `nextHoldNonce` is the agent account's current
 * `nextHoldNonce` (the hold's PDA if the transfer is held; two concurrent held transfers of one
 * agent race for it and one fails). `source` defaults to the agent's Token-2022 associated account
 * of `mint`; `recipientHandle` (normalised here) proves a recipient name for name/suffix patterns.
 */
export async function buildAgentTransferInstruction(
  input: {
    readonly agentSigner: TransactionSigner;
    readonly agent: Address;
    readonly nextHoldNonce: bigint;
    readonly mint: Address;
    readonly destination: Address;
    readonly amount: bigint;
    readonly transferId: ReadonlyUint8Array;
    readonly payer: TransactionSigner;
    readonly source?: Address;
    readonly recipientHandle?: string;
  } & ProgramConfig,
) {
  const config = programOf(input);
  const [policy] = await findPolicyPda({ agent: input.agent }, config);
  const [pending] = await findPendingTransactionPda(
    { agent: input.agent, nonce: input.nextHoldNonce },
    config,
  );
  const source =
    input.source ??
    (
      await findAssociatedTokenPda({
        owner: input.agent,
        mint: input.mint,
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      })
    )[0];
  const recipientHandle = await findOptionalHandlePda(input.recipientHandle, config);
  assertTransferId(input.transferId);
  return getAgentTransferInstruction(
    {
      agentSigner: input.agentSigner,
      agent: input.agent,
      policy,
      source,
      mint: input.mint,
      destination: input.destination,
      recipientHandle,
      pending,
      payer: input.payer,
      amount: input.amount,
      transferId: input.transferId,
    },
    config,
  );
}

/**
 * `pending_approve`: the owner approves the hold at `pending` before it expires; every other
 * account is read from the decoded hold (`hold`, e.g. from `fetchPendingTransaction`): its agent,
 * source, mint, destination, recipient handle and rent payer.
 */
export async function buildPendingApproveInstruction(
  input: {
    readonly owner: TransactionSigner;
    readonly pending: Address;
    readonly hold: PendingTransaction;
  } & ProgramConfig,
) {
  const config = programOf(input);
  return getPendingApproveInstruction(
    await holdApprovalAccounts(input.owner, input.pending, input.hold, recipientHandleOf(input.hold), config),
    config,
  );
}

/**
 * The accounts every approval of a hold names (`pending_approve`, `confidential_pending_approve`),
 * read from the hold: its agent and policy, the transfer's source, mint, destination and recipient
 * handle, and its rent payer, who gets the rent back.
 */
export async function holdApprovalAccounts(
  owner: TransactionSigner,
  pending: Address,
  hold: {
    readonly agent: Address;
    readonly source: Address;
    readonly mint: Address;
    readonly destination: Address;
    readonly rentPayer: Address;
  },
  recipientHandle: string | undefined,
  config: ProgramConfig,
) {
  const [policy] = await findPolicyPda({ agent: hold.agent }, config);
  return {
    owner,
    agent: hold.agent,
    policy,
    pending,
    source: hold.source,
    mint: hold.mint,
    destination: hold.destination,
    recipientHandle: await findOptionalHandlePda(recipientHandle, config),
    rentReceiver: hold.rentPayer,
  };
}

/** `pending_reject`: the owner discards the hold at `pending`; its rent goes back to its payer. */
export function buildPendingRejectInstruction(
  input: {
    readonly owner: TransactionSigner;
    readonly pending: Address;
    readonly hold: PendingTransaction;
  } & ProgramConfig,
) {
  return withoutContextSlots(
    getPendingRejectInstruction(
      {
        owner: input.owner,
        agent: input.hold.agent,
        pending: input.pending,
        rentReceiver: input.hold.rentPayer,
      },
      programOf(input),
    ),
    4,
  );
}

/** `pending_close_expired`: anyone closes an expired hold; its rent goes back to its payer. */
export function buildPendingCloseExpiredInstruction(
  input: { readonly pending: Address; readonly hold: PendingTransaction } & ProgramConfig,
) {
  return withoutContextSlots(
    getPendingCloseExpiredInstruction(
      { agent: input.hold.agent, pending: input.pending, rentReceiver: input.hold.rentPayer },
      programOf(input),
    ),
    3,
  );
}

/**
 * A public hold's reject / close-expired without the four optional trailing slots the generated
 * client fills with the program id: the program reads them only for a confidential hold (whose
 * flows live in `@cpay/sdk/agent-confidential`), and every account costs bytes and compute units.
 */
function withoutContextSlots<T extends { readonly accounts: readonly unknown[] }>(
  instruction: T,
  own: number,
): T {
  return { ...instruction, accounts: instruction.accounts.slice(0, own) };
}

/**
 * `transfer_record`: emits `ServiceTransferRecorded` for a transfer the service makes and creates
 * its Receipt PDA, so a retried submission of the same transfer id fails on-chain. `memo` is the
 * encrypted memo, at most 256 bytes (RangeError otherwise), as is a transfer id that is not 16 bytes.
 */
export async function buildTransferRecordInstruction(
  input: {
    readonly sender: TransactionSigner;
    readonly payer: TransactionSigner;
    readonly transferId: ReadonlyUint8Array;
    readonly confidential: boolean;
    readonly memo: ReadonlyUint8Array;
    readonly source: Address;
    readonly destination: Address;
    readonly mint: Address;
  } & ProgramConfig,
) {
  if (input.memo.length > MAX_MEMO_BYTES) {
    throw new RangeError(`a memo is at most ${MAX_MEMO_BYTES} bytes, got ${input.memo.length}`);
  }
  const config = programOf(input);
  const [receipt] = await findReceiptPda(
    { sender: input.sender.address, transferId: input.transferId },
    config,
  );
  return getTransferRecordInstruction(
    {
      sender: input.sender,
      receipt,
      payer: input.payer,
      source: input.source,
      destination: input.destination,
      mint: input.mint,
      transferId: input.transferId,
      confidential: input.confidential,
      memo: input.memo,
    },
    config,
  );
}

/**
 * `receipt_close`: the receipt's rent payer (`rentReceiver`, who signs) closes it once it is
 * RECEIPT_MIN_AGE_SLOTS old and takes back every lamport. Nobody else can close it.
 */
export function buildReceiptCloseInstruction(
  input: { readonly receipt: Address; readonly rentReceiver: TransactionSigner } & ProgramConfig,
) {
  return getReceiptCloseInstruction(
    { receipt: input.receipt, rentReceiver: input.rentReceiver },
    programOf(input),
  );
}

/** The recipient handle a hold recorded (its first `recipientHandleLen` bytes), if any. */
export function recipientHandleOf(hold: PendingTransaction): string | undefined {
  if (hold.recipientHandleLen === 0) return undefined;
  return new TextDecoder().decode(hold.recipientHandle.slice(0, hold.recipientHandleLen));
}
