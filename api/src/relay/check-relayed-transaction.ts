/**
 * The relay's guard for self-custody agents (issue 8): an agent signs its own transaction through
 * its PDA with its own key, and the service's fee payer (the fee reserve) co-signs as account 0.
 * Solana takes every account's signer and writable flags from the MESSAGE, not from the instruction
 * that lists it, so the fee payer's index in ANY instruction's account list hands that instruction
 * (and whatever it CPIs into) a writable signer holding the reserve's lamports. Before co-signing,
 * the relay therefore proves, statically and over the exact bytes it will sign, that the fee payer
 * pays for nothing but fees and the rent deposits the product pays (spec: callers never need SOL):
 * every program, instruction, signer and fee-payer position allowed is listed here, and anything
 * else is refused with a message naming the instruction and the account that broke the rule.
 */
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/sdk";
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, LAMPORTS_PER_SIGNATURE } from "@cpay/sdk/chain";
import {
  type Address,
  type CompiledTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  type ReadonlyUint8Array,
} from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import { instructionsOf } from "../reserve/message-instructions";
import { checkAgentPolicy } from "./checks/agent-policy";
import { checkAssociatedToken } from "./checks/associated-token";
import { checkComputeBudget } from "./checks/compute-budget";
import { checkSigners } from "./checks/signers";
import { checkSystem } from "./checks/system";
import { checkTransferRecords } from "./checks/transfer-record";
import { checkUpgradeableLoader } from "./checks/upgradeable-loader";
import {
  type CompiledMessage,
  type InstructionCheck,
  type Refusal,
  type RelayCheck,
  type RelayedInstruction,
  type RelayPolicyContext,
  refuse,
  type Verdict,
} from "./checks/verdict";
import { checkZkProof } from "./checks/zk-proof";

export type { RelayCheck, RelayPolicyContext, RelayRefusal } from "./checks/verdict";

/**
 * Checks a partially signed wire transaction an agent asks the relay to co-sign (see the module
 * doc). On success it returns what the fee payer will spend and the bytes it must sign at index 0;
 * on refusal nothing may be signed, and `message` names what was wrong precisely enough for the
 * agent's developer to fix it without reading this file.
 */
export function checkRelayedTransaction(wire: Uint8Array, ctx: RelayPolicyContext): RelayCheck {
  const decoded = decode(wire);
  if (!decoded.ok) return decoded;
  const { message, messageBytes, signatures } = decoded;
  const accounts = message.staticAccounts;
  if (accounts[0] !== ctx.feePayer) {
    return refuse(
      "fee_payer_mismatch",
      `account 0 (the fee payer) is ${accounts[0]}; relayed transactions name ${ctx.feePayer}`,
    );
  }
  if (signatures[0] !== null) {
    return refuse(
      "malformed_transaction",
      "signature 0 (the fee payer's) is filled; leave it as 64 zero bytes, the relay signs it",
    );
  }
  const allowance = {
    created: new Set<string>(),
    creations: [] as { readonly address: string; readonly kind: "context" | "buffer"; readonly at: number }[],
    rentLamports: 0n,
  };
  const instructions = instructionsOf(message);
  for (const instruction of instructions) {
    const verdict = checkInstruction(instruction, message.header.numSignerAccounts, accounts, ctx);
    if (!verdict.ok) return verdict;
    if (verdict.created !== undefined) {
      allowance.created.add(verdict.created.address);
      allowance.creations.push({ ...verdict.created, at: instruction.index });
    }
    allowance.rentLamports += verdict.rentLamports;
  }
  const unrecorded = checkTransferRecords(instructions, ctx);
  if (unrecorded) return unrecorded;
  const unconsumed = unconsumedCreation(allowance.creations, instructions, ctx);
  if (unconsumed) return unconsumed;
  const signerRefusal = checkSigners(message, signatures, messageBytes, allowance.created, ctx);
  if (signerRefusal) return signerRefusal;
  const required = message.header.numSignerAccounts;
  return {
    ok: true,
    signatures: required,
    feeLamports: LAMPORTS_PER_SIGNATURE * BigInt(required),
    rentLamports: allowance.rentLamports,
    messageBytes: new Uint8Array(messageBytes),
    feePayerIndex: 0,
    instructions,
  };
}

const ZK_CLOSE_CONTEXT_STATE = 0;
const LOADER_INITIALIZE_BUFFER = 0;

/**
 * Rule 7: every account the fee payer funds is consumed in the same transaction, for the agent,
 * so nobody can take it (and its rent) elsewhere. A proof context must be verified into here (a
 * verify's context_state; the ZK check holds its authority to the agent's PDA): an allocated but
 * unverified context is anyone's to verify into with their own authority and close. A staging
 * buffer must be initialized here with the agent's signer as its authority (the loader check
 * holds the authority); the agent could still close it to itself, so its rent counts as spent
 * until it is seen coming back.
 */
function unconsumedCreation(
  creations: readonly {
    readonly address: string;
    readonly kind: "context" | "buffer";
    readonly at: number;
  }[],
  instructions: readonly RelayedInstruction[],
  ctx: RelayPolicyContext,
): Refusal | undefined {
  for (const creation of creations) {
    const consumed = instructions.some((instruction) => {
      if (creation.kind === "context") {
        if (instruction.program !== ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS) return false;
        const tag = instruction.data[0];
        if (tag === undefined || tag === ZK_CLOSE_CONTEXT_STATE) return false;
        // The context is the second account of a verify reading from an account, else the first.
        const position = instruction.data.length === 5 ? 1 : 0;
        return instruction.accounts[position] === creation.address;
      }
      if (instruction.program !== BPF_LOADER_UPGRADEABLE_ADDRESS) return false;
      const data = instruction.data;
      const tag = data.length >= 4 ? new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) : -1;
      return (
        tag === LOADER_INITIALIZE_BUFFER &&
        instruction.accounts[0] === creation.address &&
        instruction.accounts[1] === ctx.agent.signer
      );
    });
    if (!consumed) {
      const how =
        creation.kind === "context"
          ? "a proof context the reserve funds must be verified into in the same transaction, with the agent's PDA as its authority"
          : "a staging buffer the reserve funds must be initialized in the same transaction, with the agent's signer as its authority";
      return refuse(
        "account_not_consumed",
        `instruction ${creation.at} creates ${creation.address}, which this transaction does not consume: ${how}`,
      );
    }
  }
  return undefined;
}

interface Decoded {
  readonly ok: true;
  readonly message: CompiledMessage;
  readonly messageBytes: ReadonlyUint8Array;
  /** One per required signer, in account order; null where the slot is 64 zero bytes. */
  readonly signatures: readonly (ReadonlyUint8Array | null)[];
}

/**
 * Decodes with kit and refuses what the static check cannot see through: lookup tables (the
 * accounts they load are not in the bytes), v1 messages, duplicate or out-of-range accounts, and
 * bytes that do not re-encode to themselves (what is signed must be exactly what was checked).
 */
function decode(wire: Uint8Array): Decoded | Refusal {
  let messageBytes: ReadonlyUint8Array;
  let signatureMap: Readonly<Record<string, ReadonlyUint8Array | null>>;
  let message: CompiledTransactionMessage;
  try {
    ({ messageBytes, signatures: signatureMap } = getTransactionDecoder().decode(wire));
    message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  } catch (error) {
    return refuse("malformed_transaction", `not a wire transaction: ${(error as Error).message}`);
  }
  if (message.version === 1) {
    return refuse("malformed_transaction", "a version 1 message; the relay takes legacy and v0 transactions");
  }
  const lookups = message.version === 0 ? (message.addressTableLookups ?? []) : [];
  if (lookups.length > 0) {
    return refuse(
      "address_lookup_not_allowed",
      `the message loads accounts from lookup table ${lookups[0]?.lookupTableAddress}; list every account in the message`,
    );
  }
  const encoded = getCompiledTransactionMessageEncoder().encode(message);
  if (!sameBytes(encoded, messageBytes)) {
    return refuse("malformed_transaction", "the message bytes do not re-encode to themselves");
  }
  const structural = checkStructure(message);
  if (structural) return structural;
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts);
  return {
    ok: true,
    message,
    messageBytes,
    signatures: signers.map((signer) => signatureMap[signer] ?? null),
  };
}

/** What the runtime would reject before running anything, and what would fool the signer map. */
function checkStructure(message: CompiledMessage): Refusal | undefined {
  const { header, staticAccounts } = message;
  const count = staticAccounts.length;
  if (
    header.numSignerAccounts < 1 ||
    header.numReadonlySignerAccounts >= header.numSignerAccounts ||
    header.numSignerAccounts + header.numReadonlyNonSignerAccounts > count
  ) {
    return refuse("malformed_transaction", "the message header does not fit its accounts");
  }
  const seen = new Map<string, number>();
  for (const [at, account] of staticAccounts.entries()) {
    const first = seen.get(account);
    if (first !== undefined) {
      return refuse("malformed_transaction", `accounts ${first} and ${at} are both ${account}`);
    }
    seen.set(account, at);
  }
  for (const [index, instruction] of message.instructions.entries()) {
    const indices = [instruction.programAddressIndex, ...(instruction.accountIndices ?? [])];
    const outside = indices.find((at) => at >= count);
    if (outside !== undefined) {
      return refuse(
        "malformed_transaction",
        `instruction ${index} refers to account ${outside}; the message has ${count}`,
      );
    }
  }
  return undefined;
}

/** The other relayed programs' checks, by program id (agent-policy's id is the environment's). */
const CHECKS_BY_PROGRAM: ReadonlyMap<string, InstructionCheck> = new Map<string, InstructionCheck>([
  [ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS, checkZkProof],
  [SYSTEM_PROGRAM_ADDRESS, checkSystem],
  [ASSOCIATED_TOKEN_PROGRAM_ADDRESS, checkAssociatedToken],
  [COMPUTE_BUDGET_PROGRAM_ADDRESS, checkComputeBudget],
  [BPF_LOADER_UPGRADEABLE_ADDRESS, checkUpgradeableLoader],
]);

function checkInstruction(
  instruction: RelayedInstruction,
  numSigners: number,
  accounts: readonly Address[],
  ctx: RelayPolicyContext,
): Verdict {
  const check =
    instruction.program === ctx.programId ? checkAgentPolicy : CHECKS_BY_PROGRAM.get(instruction.program);
  if (check === undefined) {
    return refuse(
      "unknown_program",
      `instruction ${instruction.index} calls program ${instruction.program}; relayed transactions call only agent-policy, ZK ElGamal proof, System, Associated Token, Compute Budget and the BPF Upgradeable Loader (a proof's staging buffer)`,
    );
  }
  const isSigner = (account: string) => {
    const at = accounts.indexOf(account as Address);
    return at >= 0 && at < numSigners;
  };
  return check(instruction, ctx, isSigner);
}

function sameBytes(a: ReadonlyUint8Array, b: ReadonlyUint8Array): boolean {
  return a.length === b.length && a.every((byte, at) => byte === b[at]);
}
