/**
 * LiteSVM's error objects -> Solana's `TransactionError` JSON, the shape RPC nodes return in `err`
 * (serde's externally tagged enums): a unit variant is its name (`"BlockhashNotFound"`), a tuple
 * variant an object (`{ InstructionError: [0, { Custom: 6000 }] }`), a struct variant an object of
 * fields (`{ InsufficientFundsForRent: { account_index: 2 } }`).
 *
 * The binding returns unit variants as plain numbers (napi `const enum`s that do not exist at run
 * time), so the variant names are listed here in the binding's declaration order
 * (litesvm 1.5.0 `dist/internal.d.ts`); a test pins a few of them against real failures.
 */
import {
  type FailedTransactionMetadata,
  InstructionErrorBorshIo,
  InstructionErrorCustom,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
  TransactionErrorProgramExecutionTemporarilyRestricted,
} from "litesvm/dist/internal.js";
import type { TransactionErrorJson } from "./cluster-port";

const TRANSACTION_ERROR_NAMES = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

const INSTRUCTION_ERROR_NAMES = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

/** The unit-variant name of a transaction error code, e.g. 7 -> "BlockhashNotFound". */
export function transactionErrorName(code: number): string {
  return TRANSACTION_ERROR_NAMES[code] ?? `UnknownTransactionError${code}`;
}

/** Solana's JSON for the error of a failed LiteSVM transaction. */
export function toTransactionErrorJson(
  err: ReturnType<FailedTransactionMetadata["err"]>,
): TransactionErrorJson {
  if (typeof err === "number") return transactionErrorName(err);
  if (err instanceof TransactionErrorInstructionError) {
    return { InstructionError: [err.index, instructionErrorJson(err.err())] };
  }
  if (err instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: err.index };
  if (err instanceof TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  }
  if (err instanceof TransactionErrorProgramExecutionTemporarilyRestricted) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
  }
  // A variant added by a newer binding: keep its text rather than lose the failure.
  return { Unknown: String(err) };
}

function instructionErrorJson(err: ReturnType<TransactionErrorInstructionError["err"]>): string | object {
  if (typeof err === "number") return INSTRUCTION_ERROR_NAMES[err] ?? `UnknownInstructionError${err}`;
  if (err instanceof InstructionErrorCustom) return { Custom: err.code };
  if (err instanceof InstructionErrorBorshIo) return { BorshIoError: err.msg };
  return { Unknown: String(err) };
}
