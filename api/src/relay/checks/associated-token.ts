/** The Associated Token Account program's one relayed instruction: CreateIdempotent of a USDG account. */
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ALLOWED, feePayerOutside, type InstructionCheck, refuse } from "./verdict";

/** CreateIdempotent's data: its one-byte tag. */
const ATA_CREATE_IDEMPOTENT = 1;
const ATA_ACCOUNTS = ["payer", "ata", "owner", "mint", "system_program", "token_program"];

/**
 * Associated Token Account program: CreateIdempotent of a Token-2022 USDG account, its rent paid
 * by the fee payer (the product opens recipients' accounts). Create (which fails on an existing
 * account, fee spent) and RecoverNested are not relayed.
 */
export const checkAssociatedToken: InstructionCheck = (instruction, ctx) => {
  const { data, accounts } = instruction;
  const at = `instruction ${instruction.index}`;
  if (data.length !== 1 || data[0] !== ATA_CREATE_IDEMPOTENT) {
    return refuse(
      "instruction_not_allowed",
      `${at} (Associated Token, data [${[...data].join(", ")}]) is not CreateIdempotent`,
    );
  }
  const label = `${at} (Associated Token CreateIdempotent)`;
  if (accounts.length < ATA_ACCOUNTS.length) {
    return refuse(
      "instruction_not_allowed",
      `${label} lists ${accounts.length} accounts; it takes ${ATA_ACCOUNTS.length}`,
    );
  }
  const misuse = feePayerOutside(
    instruction,
    label,
    ctx,
    (position) => position === 0,
    (position) => ATA_ACCOUNTS[position],
  );
  if (misuse) return misuse;
  const expected: [number, string][] = [
    [3, ctx.usdgMint],
    [4, SYSTEM_PROGRAM_ADDRESS],
    [5, TOKEN_2022_PROGRAM_ADDRESS],
  ];
  for (const [position, address] of expected) {
    if (accounts[position] !== address) {
      return refuse(
        "instruction_not_allowed",
        `${label} names ${accounts[position]} as ${ATA_ACCOUNTS[position]}; it must be ${address}`,
      );
    }
  }
  return ALLOWED;
};
