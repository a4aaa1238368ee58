/** The System program's one relayed instruction: the fee payer's CreateAccount of a ZK proof context. */
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/sdk";
import { getAddressDecoder, getU32Decoder, getU64Decoder } from "@solana/kit";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import { feePayerOutside, type InstructionCheck, refuse } from "./verdict";

/** The largest proof context the reserve funds (the biggest ZK context is 385 bytes). */
const MAX_CONTEXT_SPACE = 10_000;

const SYSTEM_INSTRUCTIONS = [
  "CreateAccount",
  "Assign",
  "Transfer",
  "CreateAccountWithSeed",
  "AdvanceNonceAccount",
  "WithdrawNonceAccount",
  "InitializeNonceAccount",
  "AuthorizeNonceAccount",
  "Allocate",
  "AllocateWithSeed",
  "AssignWithSeed",
  "TransferWithSeed",
  "UpgradeNonceAccount",
];

/** CreateAccount's data: u32 tag, u64 lamports, u64 space, 32-byte owner. */
const CREATE_ACCOUNT_DATA_LEN = 4 + 8 + 8 + 32;

/**
 * System program: only CreateAccount of a ZK proof context (or a proof's staging buffer), funded by
 * the fee payer with exactly the rent-exempt minimum, for a fresh account that signs (neither the
 * fee payer nor the agent's key). Anything else the fee payer takes part in (Transfer, Assign, a
 * bigger deposit, another owner) would spend or give away the reserve. That the same transaction
 * consumes the account for the agent is checked over the whole transaction (consumedAccounts in
 * check-relayed-transaction.ts).
 */
export const checkSystem: InstructionCheck = (instruction, ctx, isSigner) => {
  const { data, accounts } = instruction;
  const tag = data.length >= 4 ? getU32Decoder().decode(data) : undefined;
  const name = tag === undefined ? "without an instruction tag" : (SYSTEM_INSTRUCTIONS[tag] ?? `tag ${tag}`);
  const label = `instruction ${instruction.index} (System ${name})`;
  const feePayerAt = accounts.indexOf(ctx.feePayer);
  const refuseSystem = (why: string) =>
    refuse(feePayerAt === -1 ? "instruction_not_allowed" : "fee_payer_misused", `${label} ${why}`);
  if (tag !== 0) {
    if (feePayerAt === -1) return refuseSystem("is not relayed; only CreateAccount of a proof context is");
    if ((tag === 2 || tag === 11) && feePayerAt === 0)
      return refuseSystem("would move the fee payer's lamports");
    return refuseSystem(
      `passes the fee payer as account ${feePayerAt}; only CreateAccount of a proof context may`,
    );
  }
  if (data.length !== CREATE_ACCOUNT_DATA_LEN || accounts.length < 2) {
    return refuseSystem(`takes ${CREATE_ACCOUNT_DATA_LEN} bytes of data and 2 accounts`);
  }
  const [from, created] = accounts as [string, string];
  const lamports = getU64Decoder().decode(data, 4);
  const space = getU64Decoder().decode(data, 12);
  const owner = getAddressDecoder().decode(data, 20);
  if (from !== ctx.feePayer) {
    return refuseSystem(`is funded by ${from}; the relay only relays the fee payer's context deposits`);
  }
  const misuse = feePayerOutside(
    instruction,
    label,
    ctx,
    (position) => position === 0,
    (position) => ["from", "new"][position],
  );
  if (misuse) return misuse;
  if (created === ctx.agent.signer || !isSigner(created)) {
    return refuseSystem(`creates ${created}, which must be a fresh key signing this transaction`);
  }
  if (owner !== ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS && owner !== BPF_LOADER_UPGRADEABLE_ADDRESS) {
    return refuseSystem(
      `would give the fee payer's lamports to an account owned by ${owner}; only ZK proof contexts and a proof's staging buffer are funded`,
    );
  }
  if (space > BigInt(MAX_CONTEXT_SPACE)) {
    return refuseSystem(`allocates ${space} bytes; a proof context takes at most ${MAX_CONTEXT_SPACE}`);
  }
  const minimum = ctx.rentExemptMinimum(Number(space));
  if (lamports !== minimum) {
    return refuseSystem(
      `deposits ${lamports} lamports; the rent-exempt minimum for ${space} bytes is ${minimum}`,
    );
  }
  return {
    ok: true,
    created: { address: created, kind: owner === ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS ? "context" : "buffer" },
    rentLamports: lamports,
  };
};
