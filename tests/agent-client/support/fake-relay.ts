/**
 * A stand-in for the service's relay (`GET`/`POST /v1/relay`) in the suite's process, submitting
 * through a chain port (the embedded cluster's, or the localnet process's over RPC): it names the
 * cluster's fee reserve as fee payer, and for every transaction it receives
 * 1. records it and checks what a relay must insist on: account 0 is the fee payer, the fee
 *    payer's signature slot is empty, every other signer has signed, and the fee payer appears in no
 *    instruction except where it pays or gets rent back (System CreateAccount's funder, ATA
 *    CreateIdempotent's payer, agent-policy's `payer` / `context_rent_receiver` / `rent_receiver`,
 *    a closed context's or staging buffer's rent destination); a violation refuses the request;
 * 2. co-signs it with the fee reserve's real key over the message bytes and sends it with preflight,
 *    rejecting with the port's `SubmissionRejected` (program errors included, so callers can
 *    decode them) and sending nothing after a refused one.
 * The answer's `transfer` mimics `POST /v1/transfers` from the program's events. Each landed
 * transaction is waited for until it is `confirmed` (the chain produces its slots), so the client
 * can read it back, its history included, before the next one is submitted.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import {
  identifyAgentPolicyInstruction,
  parseAgentPolicyEvents,
  parseAgentPolicyInstruction,
} from "@cpay/sdk";
import type { RelaySubmission, RelayTransport } from "@cpay/sdk/agent-client";
import { decodeHold } from "@cpay/sdk/agent-confidential";
import { awaitLanding, type ChainPort, confirmedTransaction, type TransactionRecord } from "@cpay/sdk/chain";
import {
  AccountRole,
  type Address,
  address,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
  type ReadonlyUint8Array,
  signBytes,
} from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";

const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
/** Agent-policy accounts (the generated parsers' names) the fee payer may be: rent in or out. */
const FEE_PAYER_ROLES = new Set(["payer", "contextRentReceiver", "rentReceiver"]);

/** One transaction the relay received, as the agent sent it. */
export interface ReceivedTransaction {
  readonly wire: Uint8Array;
  readonly feePayerSlotEmpty: boolean;
  /** Every account the message names (static keys), in order. */
  readonly accounts: readonly Address[];
  readonly programs: readonly Address[];
  /** What broke the rules above; empty for a transaction the relay co-signs. */
  readonly violations: readonly string[];
  /** Set once it landed. */
  signature?: string;
}

export interface FakeRelay extends RelayTransport {
  readonly feePayer: Address;
  readonly received: ReceivedTransaction[];
}

/** A relay submitting through `chain` and paying with the cluster's fee reserve `reserve` (see the file doc). */
export function createFakeRelay(chain: ChainPort, reserve: KeyPairSigner): FakeRelay {
  const feePayer = reserve.address;
  const received: ReceivedTransaction[] = [];

  const submitOne = async (wire: Uint8Array): Promise<{ signature: string; landed: TransactionRecord }> => {
    const transaction = inspect(wire, feePayer);
    received.push(transaction);
    if (transaction.violations.length > 0) {
      throw new Error(`relay refused the transaction: ${transaction.violations.join("; ")}`);
    }
    const { messageBytes } = getTransactionDecoder().decode(wire);
    const signed = Uint8Array.from(wire);
    // One compact-u16 byte counts the signatures; the fee payer's is the first slot.
    signed.set(await signBytes(reserve.keyPair.privateKey, Uint8Array.from(messageBytes)), 1);
    const blockhash = getCompiledTransactionMessageDecoder().decode(messageBytes).lifetimeToken;
    const signature = await chain.sendTransaction(signed, { preflight: true });
    const status = await awaitLanding(chain, signature, blockhash, { pollMs: 20 });
    if (status === null || status.err !== null) {
      throw new Error(`transaction ${signature} did not land: ${JSON.stringify(status?.err ?? null)}`);
    }
    transaction.signature = signature;
    const landed = await confirmedTransaction(chain, signature, { pollMs: 20 });
    if (landed === null) throw new Error(`transaction ${signature} landed but is not in the history`);
    return { signature, landed };
  };

  return {
    feePayer,
    received,
    async info() {
      const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
      return { feePayer, blockhash, lastValidBlockHeight };
    },
    async submit(wires): Promise<RelaySubmission> {
      const signatures: string[] = [];
      let last: TransactionRecord | null = null;
      for (const wire of wires) {
        const { signature, landed } = await submitOne(wire);
        signatures.push(signature);
        last = landed;
      }
      return { signatures, transfer: last === null ? null : await transferAnswer(chain, last) };
    },
  };
}

/** Decodes `wire` and lists how it breaks the relay's rules (see the file doc). */
function inspect(wire: Uint8Array, feePayer: Address): ReceivedTransaction {
  const { messageBytes, signatures } = getTransactionDecoder().decode(wire);
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  const accounts = message.staticAccounts;
  const violations: string[] = [];
  if (message.version === 1) {
    return { wire, feePayerSlotEmpty: false, accounts, programs: [], violations: ["a v1 message"] };
  }
  if (wire[0] === undefined || wire[0] >= 0x80) violations.push("too many signatures");
  if (accounts[0] !== feePayer) violations.push(`account 0 is ${accounts[0]}, not the fee payer`);
  const feePayerSlotEmpty = (signatures[feePayer] ?? null) === null;
  if (!feePayerSlotEmpty) violations.push("the fee payer's signature slot is filled");
  for (const [signer, signature] of Object.entries(signatures)) {
    if (signer !== feePayer && signature === null) violations.push(`${signer} has not signed`);
  }
  if ("addressTableLookups" in message && (message.addressTableLookups?.length ?? 0) > 0) {
    violations.push("address lookup tables are not relayed");
  }
  const programs: Address[] = [];
  for (const [index, compiled] of message.instructions.entries()) {
    const program = accounts[compiled.programAddressIndex] as Address;
    programs.push(program);
    const instructionAccounts = (compiled.accountIndices ?? []).map((at) => accounts[at] as Address);
    const data = Uint8Array.from(compiled.data ?? []);
    for (const [position, account] of instructionAccounts.entries()) {
      if (account !== feePayer) continue;
      if (!feePayerAllowed(program, data, position, instructionAccounts)) {
        violations.push(`instruction ${index} (${program}) names the fee payer as account ${position}`);
      }
    }
  }
  return { wire, feePayerSlotEmpty, accounts, programs, violations };
}

/** Whether the fee payer may be account `position` of this instruction: only paying or getting rent. */
function feePayerAllowed(
  program: Address,
  data: Uint8Array,
  position: number,
  accounts: readonly Address[],
): boolean {
  const tag = data.length >= 4 ? new DataView(data.buffer, data.byteOffset).getUint32(0, true) : -1;
  switch (program) {
    case SYSTEM_PROGRAM_ADDRESS:
      return tag === 0 && position === 0; // CreateAccount's funder
    case ASSOCIATED_TOKEN_PROGRAM_ADDRESS:
      return data.length === 1 && data[0] === 1 && position === 0; // CreateIdempotent's payer
    case BPF_LOADER_UPGRADEABLE_ADDRESS:
      return tag === 5 && position === 1; // Close: the buffer's rent goes back
    case ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS:
      return data[0] === 0 && position === 1; // CloseContextState's destination
    case COMPUTE_BUDGET_PROGRAM:
      return false;
    default:
      return agentPolicyRole(program, data, accounts, position) !== null;
  }
}

/** The agent-policy account name at `position` when the fee payer may hold it there, else null. */
function agentPolicyRole(
  program: Address,
  data: Uint8Array,
  accounts: readonly Address[],
  position: number,
): string | null {
  let parsed: { readonly accounts: Record<string, unknown> };
  try {
    identifyAgentPolicyInstruction(data);
    const instruction: Instruction = {
      programAddress: program,
      accounts: accounts.map((account) => ({ address: account, role: AccountRole.READONLY })),
      data,
    };
    parsed = parseAgentPolicyInstruction(instruction as Parameters<typeof parseAgentPolicyInstruction>[0]);
  } catch {
    return null;
  }
  const name = Object.keys(parsed.accounts)[position];
  return name !== undefined && FEE_PAYER_ROLES.has(name) ? name : null;
}

/** `POST /v1/transfers`' answer for the transfer `landed` executed or held, else null. */
async function transferAnswer(chain: ChainPort, landed: TransactionRecord): Promise<unknown | null> {
  const { signature } = landed;
  const { events } = parseAgentPolicyEvents(landed.logs, { programAddress: address(chain.programId) });
  const answer = (transferId: ReadonlyUint8Array) => ({
    transfer_id: idFromBytes("tr", Uint8Array.from(transferId)),
    tx_signature: signature,
    created_at: new Date(Number(landed.blockTime) * 1000).toISOString(),
  });
  for (const event of events) {
    if (event.name === "TransferExecuted" || event.name === "ConfidentialTransferExecuted") {
      return {
        ...answer(event.data.transferId),
        status: "confirmed",
        to: event.data.destination,
        confidential: event.name === "ConfidentialTransferExecuted",
        approval: null,
      };
    }
    if (event.name === "TransactionHeld") {
      const account = await chain.getAccount(event.data.pending);
      const hold = account === null ? null : decodeHold(event.data.pending, account.data);
      return {
        ...answer(event.data.transferId),
        status: "pending",
        to: hold?.destination ?? null,
        confidential: hold?.confidential ?? false,
        approval: {
          transaction_id: event.data.pending,
          expires_at: new Date(Number(event.data.expiresAt) * 1000).toISOString(),
        },
      };
    }
  }
  return null;
}
