/** The ZK ElGamal proof program's relayed instructions: verifies and closing a context. */
import { ALLOWED, feePayerOutside, type InstructionCheck, refuse } from "./verdict";

const CLOSE_CONTEXT_ACCOUNTS = ["context_state", "destination", "authority"];
/** A verify reads its proof from an account when its data is the tag and a u32 offset. */
const VERIFY_FROM_ACCOUNT_DATA_LEN = 5;
const VERIFY_FROM_ACCOUNT = ["proof_account", "context_state", "context_state_authority"];
const VERIFY_INLINE = ["context_state", "context_state_authority"];

const ZK_INSTRUCTIONS = [
  "CloseContextState",
  "VerifyZeroCiphertext",
  "VerifyCiphertextCiphertextEquality",
  "VerifyCiphertextCommitmentEquality",
  "VerifyPubkeyValidity",
  "VerifyPercentageWithCap",
  "VerifyBatchedRangeProofU64",
  "VerifyBatchedRangeProofU128",
  "VerifyBatchedRangeProofU256",
  "VerifyGroupedCiphertext2HandlesValidity",
  "VerifyBatchedGroupedCiphertext2HandlesValidity",
  "VerifyGroupedCiphertext3HandlesValidity",
  "VerifyBatchedGroupedCiphertext3HandlesValidity",
] as const;

/**
 * ZK ElGamal proof program: any verify (proof data inline or read from an account) and
 * CloseContextState `[context_state, destination, authority]`. The fee payer may only receive a
 * closed context's rent; as a context authority it would let anyone who can get it to sign close
 * the context, and a verify needs nothing from it.
 */
export const checkZkProof: InstructionCheck = (instruction, ctx) => {
  const tag = instruction.data[0];
  const name = tag === undefined ? undefined : ZK_INSTRUCTIONS[tag];
  const at = `instruction ${instruction.index}`;
  if (name === undefined) {
    return refuse(
      "instruction_not_allowed",
      `${at} (ZK ElGamal proof, tag ${tag ?? "none"}) is not an instruction the relay knows`,
    );
  }
  const label = `${at} (ZK ElGamal ${name})`;
  if (tag === 0) {
    if (instruction.data.length !== 1 || instruction.accounts.length < 3) {
      return refuse("instruction_not_allowed", `${label} takes 1 byte of data and 3 accounts`);
    }
    if (instruction.accounts[1] !== ctx.feePayer) {
      return refuse(
        "fee_payer_misused",
        `${label} sends a context's rent (the reserve paid it) to ${instruction.accounts[1]}; it must come back to the fee payer`,
      );
    }
    return (
      feePayerOutside(
        instruction,
        label,
        ctx,
        (position) => position === 1,
        (position) => CLOSE_CONTEXT_ACCOUNTS[position],
      ) ?? ALLOWED
    );
  }
  const roles =
    instruction.data.length === VERIFY_FROM_ACCOUNT_DATA_LEN ? VERIFY_FROM_ACCOUNT : VERIFY_INLINE;
  const misuse = feePayerOutside(
    instruction,
    label,
    ctx,
    () => false,
    (position) => roles[position],
  );
  if (misuse) return misuse;
  // A context the reserve funded is the agent's to consume: its authority is the agent's PDA (the
  // program closes it, rent back to the fee payer), never a key that could close it elsewhere.
  const authority = instruction.accounts[roles.indexOf("context_state_authority")];
  if (authority !== undefined && authority !== ctx.agent.pda) {
    return refuse(
      "not_this_agent",
      `${label} names ${authority} as the context's authority; relayed contexts belong to the agent's PDA ${ctx.agent.pda}`,
    );
  }
  return ALLOWED;
};
