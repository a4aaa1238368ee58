/**
 * Agave's Display text for a TransactionError, used in the message of a preflight failure:
 * `Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1770`.
 *
 * Clients act on the structured `data.err`; the text is for humans reading logs, so the common
 * variants read exactly like a validator and rare ones fall back to their variant name.
 */
import type { TransactionErrorJson } from "../cluster/cluster-port";

const TRANSACTION_ERRORS: Readonly<Record<string, string>> = {
  AccountInUse: "Account in use",
  AccountLoadedTwice: "Account loaded twice",
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  ProgramAccountNotFound: "Attempt to load a program that does not exist",
  InsufficientFundsForFee: "Insufficient funds for fee",
  InvalidAccountForFee: "This account may not be used to pay transaction fees",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  MissingSignatureForFee: "Transaction requires a fee but has no signature present",
  InvalidAccountIndex: "Transaction contains an invalid account reference",
  SignatureFailure: "Transaction did not pass signature verification",
  InvalidProgramForExecution: "This program may not be used for executing instructions",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
  InvalidWritableAccount: "Transaction loads a writable account that cannot be written",
  UnbalancedTransaction: "Sum of account balances before and after transaction do not match",
};

const INSTRUCTION_ERRORS: Readonly<Record<string, string>> = {
  GenericError: "generic instruction error",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  AccountDataTooSmall: "account data too small for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  UnbalancedInstruction: "sum of account balances before and after instruction do not match",
  ModifiedProgramId: "instruction illegally modified the program id of an account",
  ExternalAccountLamportSpend: "instruction spent from the balance of an account it does not own",
  ExternalAccountDataModified: "instruction modified data of an account it does not own",
  ReadonlyLamportChange: "instruction changed the balance of a read-only account",
  ReadonlyDataModified: "instruction modified data of a read-only account",
  DuplicateAccountIndex: "instruction contains duplicate accounts",
  ExecutableModified: "instruction changed executable bit of an account",
  NotEnoughAccountKeys: "insufficient account keys for instruction",
  AccountDataSizeChanged: "program other than the account's owner changed the size of the account data",
  AccountNotExecutable: "instruction expected an executable account",
  AccountBorrowFailed: "instruction tries to borrow reference for an account which is already borrowed",
  InvalidError: "program returned invalid error code",
  UnsupportedProgramId: "Unsupported program id",
  CallDepth: "Cross-program invocation call depth too deep",
  MissingAccount: "An account required by the instruction is missing",
  ReentrancyNotAllowed: "Cross-program invocation reentrancy not allowed for this instruction",
  MaxSeedLengthExceeded: "Length of the seed is too long for address generation",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  InvalidRealloc: "Failed to reallocate account data",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  PrivilegeEscalation: "Cross-program invocation with unauthorized signer or writable account",
  ProgramFailedToComplete: "Program failed to complete",
  ProgramFailedToCompile: "Program failed to compile",
  Immutable: "Account is immutable",
  IncorrectAuthority: "Incorrect authority provided",
  AccountNotRentExempt: "An account does not have enough lamports to be rent-exempt",
  InvalidAccountOwner: "Invalid account owner",
  ArithmeticOverflow: "Program arithmetic overflowed",
  IllegalOwner: "Provided owner is not allowed",
};

function instructionErrorText(error: unknown): string {
  if (typeof error === "string") return INSTRUCTION_ERRORS[error] ?? error;
  if (error && typeof error === "object") {
    const [variant, value] = Object.entries(error)[0] ?? ["Unknown", undefined];
    if (variant === "Custom" && (typeof value === "number" || typeof value === "bigint")) {
      return `custom program error: 0x${value.toString(16)}`;
    }
    if (variant === "BorshIoError") return "Failed to serialize or deserialize account data";
    return variant;
  }
  return String(error);
}

export function transactionErrorText(error: TransactionErrorJson): string {
  if (typeof error === "string") return TRANSACTION_ERRORS[error] ?? error;
  const [variant, value] = Object.entries(error)[0] ?? ["Unknown", undefined];
  if (variant === "InstructionError" && Array.isArray(value)) {
    return `Error processing Instruction ${value[0]}: ${instructionErrorText(value[1])}`;
  }
  if (variant === "InsufficientFundsForRent" && value && typeof value === "object") {
    const index = (value as { account_index?: unknown }).account_index;
    return `Transaction results in an account (${index}) with insufficient funds for rent`;
  }
  if (variant === "DuplicateInstruction") {
    return `Transaction contains a duplicate instruction (${value}) that is not allowed`;
  }
  return variant;
}
