/**
 * Rent the reserve advances: the slots it reads match the program's instruction layouts (the
 * generated parsers, from the IDL), and a landed transaction counts as advanced only what the
 * program itself moved from the reserve into a receipt or hold, and as returned only holds a
 * successful close paid back to the reserve.
 */
import {
  AgentPolicyInstruction,
  getAgentConfidentialTransferInstructionDataEncoder,
  getAgentTransferInstructionDataEncoder,
  getConfidentialPendingApproveInstructionDataEncoder,
  getPendingApproveInstructionDataEncoder,
  getPendingCloseExpiredInstructionDataEncoder,
  getPendingRejectInstructionDataEncoder,
  getTransferRecordInstructionDataEncoder,
  parseAgentConfidentialTransferInstruction,
  parseAgentTransferInstruction,
  parseConfidentialPendingApproveInstruction,
  parsePendingApproveInstruction,
  parsePendingCloseExpiredInstruction,
  parsePendingRejectInstruction,
  parseTransferRecordInstruction,
} from "@cpay/sdk";
import type { TransactionRecord } from "@cpay/sdk/chain";
import {
  AccountRole,
  type Address,
  createNoopSigner,
  generateKeyPairSigner,
  getTransactionEncoder,
  type Instruction,
  type ReadonlyUint8Array,
} from "@solana/kit";
import { getCreateAccountInstruction, SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { ADVANCE_SLOTS, advanceFlowsIn } from "./advances";
import { decodeWireMessage } from "./message-instructions";
import { unsentTransaction } from "./unsent-transaction.test-support";

const PROGRAM = "AgentPo1icy11111111111111111111111111111111" as Address;
const payer = createNoopSigner("Fee1111111111111111111111111111111111111111" as Address);
const ctx = { feePayer: payer.address, programId: PROGRAM };
const zeros = (length: number) => new Uint8Array(length);

/** `count` distinct addresses, for instructions whose account order is what is tested. */
async function addresses(count: number): Promise<Address[]> {
  return Promise.all(Array.from({ length: count }, async () => (await generateKeyPairSigner()).address));
}

/** An instruction of the program with these accounts and data, as the generated parsers take it. */
function instruction(accounts: readonly Address[], data: ReadonlyUint8Array) {
  return {
    programAddress: PROGRAM,
    accounts: accounts.map((address) => ({
      address,
      // A program an instruction of the message invokes cannot also be writable.
      role: address === SYSTEM_PROGRAM_ADDRESS ? AccountRole.READONLY : AccountRole.WRITABLE,
    })),
    data,
  };
}

type Parsed = { readonly address: Address } | null;
/** The slots of an instruction closing a hold: the hold, and where its rent goes back. */
const holdClosing = ({ accounts }: { accounts: { pending: Parsed; rentReceiver: Parsed } }) => ({
  account: accounts.pending,
  other: accounts.rentReceiver,
});
const LAYOUTS: readonly {
  readonly kind: AgentPolicyInstruction;
  readonly accounts: number;
  readonly data: ReadonlyUint8Array;
  readonly parse: (ix: ReturnType<typeof instruction>) => { account: Parsed; other: Parsed };
}[] = [
  {
    kind: AgentPolicyInstruction.TransferRecord,
    accounts: 7,
    data: getTransferRecordInstructionDataEncoder().encode({
      transferId: zeros(16),
      confidential: false,
      memo: zeros(0),
    }),
    parse: (ix) => {
      const { accounts } = parseTransferRecordInstruction(ix);
      return { account: accounts.receipt, other: accounts.payer };
    },
  },
  {
    kind: AgentPolicyInstruction.AgentTransfer,
    accounts: 11,
    data: getAgentTransferInstructionDataEncoder().encode({ amount: 1n, transferId: zeros(16) }),
    parse: (ix) => {
      const { accounts } = parseAgentTransferInstruction(ix);
      return { account: accounts.pending, other: accounts.payer };
    },
  },
  {
    kind: AgentPolicyInstruction.AgentConfidentialTransfer,
    accounts: 19,
    data: getAgentConfidentialTransferInstructionDataEncoder().encode({
      transferId: zeros(16),
      newSourceDecryptableAvailableBalance: zeros(36),
      spendDecryptable: zeros(36),
      spendDecryptableNextDay: zeros(36),
      requestHold: true,
    }),
    parse: (ix) => {
      const { accounts } = parseAgentConfidentialTransferInstruction(ix);
      return { account: accounts.pending, other: accounts.payer };
    },
  },
  {
    kind: AgentPolicyInstruction.PendingApprove,
    accounts: 10,
    data: getPendingApproveInstructionDataEncoder().encode({}),
    parse: (ix) => holdClosing(parsePendingApproveInstruction(ix)),
  },
  {
    kind: AgentPolicyInstruction.ConfidentialPendingApprove,
    accounts: 14,
    data: getConfidentialPendingApproveInstructionDataEncoder().encode({}),
    parse: (ix) => holdClosing(parseConfidentialPendingApproveInstruction(ix)),
  },
  {
    kind: AgentPolicyInstruction.PendingReject,
    accounts: 8,
    data: getPendingRejectInstructionDataEncoder().encode({}),
    parse: (ix) => holdClosing(parsePendingRejectInstruction(ix)),
  },
  {
    kind: AgentPolicyInstruction.PendingCloseExpired,
    accounts: 7,
    data: getPendingCloseExpiredInstructionDataEncoder().encode({}),
    parse: (ix) => holdClosing(parsePendingCloseExpiredInstruction(ix)),
  },
];

/** A landed transaction of `instructions`, paid by the reserve, with the given meta. */
function landed(
  instructions: readonly Instruction[],
  meta: {
    readonly err?: TransactionRecord["err"];
    readonly balances?: Readonly<Record<string, readonly [bigint, bigint]>>;
    readonly inner?: (keys: readonly string[]) => TransactionRecord["innerInstructions"];
  },
): TransactionRecord {
  const transaction = unsentTransaction(payer, instructions);
  const wire = new Uint8Array(getTransactionEncoder().encode(transaction));
  // The static keys in message order: what the meta's balances and CPI indices refer to.
  const ordered = [...decodeWireMessage(wire).accounts];
  return {
    signature: "sig",
    slot: 1n,
    blockTime: 0n,
    wire,
    accountKeys: ordered,
    loadedAddresses: { writable: [], readonly: [] },
    preBalances: ordered.map((key) => meta.balances?.[key]?.[0] ?? 0n),
    postBalances: ordered.map((key) => meta.balances?.[key]?.[1] ?? 0n),
    innerInstructions: meta.inner?.(ordered) ?? [],
    err: meta.err ?? null,
    logs: [],
    computeUnitsConsumed: 0n,
    fee: 5_000n,
    returnData: null,
  };
}

/** A System CreateAccount CPI `from` -> `to` of `lamports`, as the program issues it. */
function createAccountCpi(keys: readonly string[], from: string, to: string, lamports: bigint) {
  const data = new Uint8Array(52);
  const view = new DataView(data.buffer);
  view.setUint32(0, 0, true);
  view.setBigUint64(4, lamports, true);
  return {
    programIdIndex: keys.indexOf(SYSTEM_PROGRAM_ADDRESS),
    accounts: [keys.indexOf(from), keys.indexOf(to)],
    data,
    stackHeight: 2,
  };
}

describe("rent the reserve advances", () => {
  it("Given each instruction that makes or returns an advance, Then the slots read are the ones the IDL names", async () => {
    for (const layout of LAYOUTS) {
      const accounts = await addresses(layout.accounts);
      const parsed = layout.parse(instruction(accounts, layout.data));
      const made = ADVANCE_SLOTS.made.get(layout.kind);
      const returned = ADVANCE_SLOTS.returned.get(layout.kind);
      const slots =
        made === undefined
          ? { account: returned?.account, other: returned?.receiver }
          : { account: made.account, other: made.payer };
      expect({
        kind: AgentPolicyInstruction[layout.kind],
        account: parsed.account?.address,
        other: parsed.other?.address,
      }).toEqual({
        kind: AgentPolicyInstruction[layout.kind],
        account: accounts[slots.account ?? -1],
        other: accounts[slots.other ?? -1],
      });
    }
  });

  it("Given a transfer_record the reserve pays, Then the rent the program moved into the receipt is advanced; when the transaction failed, nothing", async () => {
    const accounts = await addresses(7);
    accounts[2] = payer.address;
    accounts[6] = SYSTEM_PROGRAM_ADDRESS;
    const receipt = accounts[1] as Address;
    const record = instruction(
      accounts,
      getTransferRecordInstructionDataEncoder().encode({
        transferId: zeros(16),
        confidential: false,
        memo: zeros(0),
      }),
    );
    const inner = (keys: readonly string[]) => [
      { index: 0, instructions: [createAccountCpi(keys, payer.address, receipt, 1_670_400n)] },
    ];
    expect(advanceFlowsIn(landed([record], { inner }), ctx)).toEqual({ advanced: 1_670_400n, returned: 0n });
    expect(
      advanceFlowsIn(landed([record], { inner, err: { InstructionError: [0, { Custom: 1 }] } }), ctx),
    ).toEqual({
      advanced: 0n,
      returned: 0n,
    });
  });

  it("Given an agent_transfer that executed (no hold) naming in its hold slot an account the reserve funded another way, Then nothing is advanced", async () => {
    const accounts = await addresses(11);
    accounts[8] = payer.address;
    accounts[10] = SYSTEM_PROGRAM_ADDRESS;
    const slot = accounts[7] as Address;
    const funding = getCreateAccountInstruction({
      payer,
      newAccount: createNoopSigner(slot),
      lamports: 3_786_240n,
      space: 0,
      programAddress: SYSTEM_PROGRAM_ADDRESS,
    });
    const transfer = instruction(
      accounts,
      getAgentTransferInstructionDataEncoder().encode({ amount: 1n, transferId: zeros(16) }),
    );
    const flows = advanceFlowsIn(
      landed([funding, transfer], { balances: { [slot]: [0n, 3_786_240n] } }),
      ctx,
    );
    expect(flows).toEqual({ advanced: 0n, returned: 0n });
  });

  it("Given holds closed, Then what left a hold closed to the reserve is returned, and a hold closed to anyone else is not", async () => {
    const toReserve = await addresses(8);
    toReserve[3] = payer.address;
    const toOther = await addresses(8);
    const reject = (accounts: Address[]) =>
      instruction(accounts, getPendingRejectInstructionDataEncoder().encode({}));
    const hold = toReserve[2] as string;
    const other = toOther[2] as string;
    const flows = advanceFlowsIn(
      landed([reject(toReserve), reject(toOther)], {
        balances: { [hold]: [3_786_240n, 0n], [other]: [3_786_240n, 0n] },
      }),
      ctx,
    );
    expect(flows).toEqual({ advanced: 0n, returned: 3_786_240n });
  });
});
