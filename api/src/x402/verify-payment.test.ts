/**
 * The verifier on payments built here, with the cluster's simulation stubbed: what each shape's
 * rules accept and refuse, down to the simulated CPIs of an agent's payment (the suites in
 * tests/x402 run the same rules against the localnet process).
 */
import { getAgentTransferInstructionDataEncoder } from "@cpay/sdk";
import type { InnerInstructionGroup } from "@cpay/sdk/chain";
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getTransferCheckedInstruction } from "@solana-program/token-2022";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM } from "./payment-shapes";
import { associatedTokenAccountOf, TOKEN_2022_PROGRAM } from "./token-transfers";
import { type VerifyContext, verifyPayment } from "./verify-payment";
import type { TX402Requirements } from "./x402-contracts";

const NETWORK = "solana:localnet";
const AMOUNT = 2_000_000n;
const PROGRAM = address("AgntPcy111111111111111111111111111111111111");
const MINT = address("4F6PM96JJxngmHnZLBh9n58RH4aTVNWvDs2nuwrT5BP7");

let feePayer: Address;
let payer: KeyPairSigner;
let payTo: Address;
let requirements: TX402Requirements;

beforeAll(async () => {
  feePayer = (await generateKeyPairSigner()).address;
  payer = await generateKeyPairSigner();
  payTo = (await generateKeyPairSigner()).address;
  requirements = {
    scheme: "exact",
    network: NETWORK,
    asset: MINT,
    amount: AMOUNT.toString(),
    payTo,
    maxTimeoutSeconds: 60,
    extra: { feePayer, memo: "inv 1" },
  };
});

function computeBudget(): Instruction[] {
  return [
    { programAddress: address(COMPUTE_BUDGET_PROGRAM), data: new Uint8Array([2, 0x20, 0x4e, 0, 0]) },
    { programAddress: address(COMPUTE_BUDGET_PROGRAM), data: new Uint8Array([3, 1, 0, 0, 0, 0, 0, 0, 0]) },
  ];
}

const memo = (): Instruction => ({
  programAddress: address(MEMO_PROGRAM),
  data: new TextEncoder().encode("inv 1"),
});

async function transferTo(owner: Address, amount = AMOUNT, authority: KeyPairSigner | Address = payer) {
  return getTransferCheckedInstruction({
    source: address(await associatedTokenAccountOf(payer.address, MINT, TOKEN_2022_PROGRAM)),
    mint: MINT,
    destination: address(await associatedTokenAccountOf(owner, MINT, TOKEN_2022_PROGRAM)),
    authority,
    amount,
    decimals: 6,
  }) as Instruction;
}

/** An agent's `agent_transfer` (the payer signing as the agent's signer). */
function agentTransfer(): Instruction {
  return {
    programAddress: PROGRAM,
    accounts: [{ address: payer.address, role: 3, signer: payer } as never],
    data: new Uint8Array(
      getAgentTransferInstructionDataEncoder().encode({ amount: AMOUNT, transferId: new Uint8Array(16) }),
    ),
  };
}

async function payment(instructions: Instruction[], options: { readonly feePayer?: Address } = {}) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(options.feePayer ?? feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1EtWTRABZaYq6" as never, lastValidBlockHeight: 100n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  return {
    x402Version: 2,
    accepted: requirements,
    payload: { transaction: getBase64EncodedWireTransaction(signed) },
  };
}

/** The verifier's context, the simulation answering `simulated` (its CPIs keyed by `accountKeys`). */
function context(
  simulated: {
    err?: unknown;
    calls?: readonly { program: string; accounts: string[]; data: Uint8Array }[];
  } = {},
): VerifyContext {
  return {
    feePayer,
    networks: [NETWORK],
    refuseSettled: async () => undefined,
    chain: {
      programId: PROGRAM,
      simulateTransaction: async () => {
        const accountKeys: string[] = [];
        const at = (key: string) =>
          accountKeys.includes(key) ? accountKeys.indexOf(key) : accountKeys.push(key) - 1;
        const instructions = (simulated.calls ?? []).map((call) => ({
          programIdIndex: at(call.program),
          accounts: call.accounts.map(at),
          data: call.data,
          stackHeight: 2,
        }));
        const innerInstructions: InnerInstructionGroup[] =
          instructions.length === 0 ? [] : [{ index: 2, instructions }];
        return {
          err: (simulated.err ?? null) as null,
          logs: [],
          computeUnitsConsumed: 0n,
          fee: 0n,
          returnData: null,
          replacementBlockhash: null,
          innerInstructions,
          accountKeys,
        };
      },
    },
  };
}

/** A CPI TransferChecked as the simulation reports it. */
async function call(owner: Address, amount = AMOUNT) {
  const ix = await transferTo(owner, amount, address("AgntPDA1111111111111111111111111111111111111"));
  return {
    program: ix.programAddress,
    accounts: (ix.accounts ?? []).map((meta) => meta.address),
    data: new Uint8Array(ix.data ?? []),
  };
}

async function refusalOf(promise: Promise<unknown>) {
  return promise.then(
    () => ({ reason: "accepted", message: "" }),
    (error: { reason: string; message: string }) => ({ reason: error.reason, message: error.message }),
  );
}

describe("the verifier", () => {
  it("Given a wallet's standard payment, When verified, Then it is accepted with the wallet as payer", async () => {
    const verified = await verifyPayment(
      context(),
      await payment([...computeBudget(), await transferTo(payTo), memo()]),
      requirements,
    );

    expect(verified).toMatchObject({ payer: payer.address, shape: { name: "transfer_checked" } });
    expect(verified.transfer.amount).toBe(AMOUNT);
  });

  it("Given an agent's agent_transfer whose simulation shows one TransferChecked of the amount to payTo, When verified, Then it is accepted with the agent's PDA as payer", async () => {
    const verified = await verifyPayment(
      context({ calls: [await call(payTo)] }),
      await payment([...computeBudget(), agentTransfer(), memo()]),
      requirements,
    );

    expect(verified).toMatchObject({
      payer: "AgntPDA1111111111111111111111111111111111111",
      shape: { name: "agent_transfer" },
    });
  });

  it.each([
    ["held for approval (no CPI)", "invalid_exact_svm_smart_wallet_no_transfer_in_simulation", [], "held"],
    ["paying another account", "invalid_exact_svm_payload_recipient_mismatch", ["elsewhere"], "pays"],
    [
      "paying twice",
      "invalid_exact_svm_smart_wallet_multiple_matching_transfers",
      ["payTo", "payTo"],
      "2 token transfers",
    ],
    ["paying less", "invalid_exact_svm_payload_amount_mismatch", ["less"], "at least"],
  ] as const)(
    "Given an agent's payment %s in simulation, When verified, Then it is refused (%s)",
    async (_, reason, calls, says) => {
      const stranger = (await generateKeyPairSigner()).address;
      const simulated = await Promise.all(
        calls.map((kind) =>
          kind === "elsewhere" ? call(stranger) : kind === "less" ? call(payTo, AMOUNT - 1n) : call(payTo),
        ),
      );

      const refused = await refusalOf(
        verifyPayment(
          context({ calls: simulated }),
          await payment([...computeBudget(), agentTransfer(), memo()]),
          requirements,
        ),
      );

      expect(refused.reason).toBe(reason);
      expect(refused.message).toContain(says);
    },
  );

  it("Given an agent's payment the program refuses in simulation, When verified, Then it is refused naming the error", async () => {
    const refused = await refusalOf(
      verifyPayment(
        context({ err: { InstructionError: [2, { Custom: 6001 }] } }),
        await payment([...computeBudget(), agentTransfer(), memo()]),
        requirements,
      ),
    );

    expect(refused).toEqual({
      reason: "invalid_exact_svm_smart_wallet_simulation_failed",
      message: expect.stringContaining('"Custom":6001'),
    });
  });

  it("Given a wallet's payment of more than the amount, When verified, Then it is refused: the static path takes exactly the amount", async () => {
    const refused = await refusalOf(
      verifyPayment(
        context(),
        await payment([...computeBudget(), await transferTo(payTo, AMOUNT + 1n), memo()]),
        requirements,
      ),
    );

    expect(refused.reason).toBe("invalid_exact_svm_payload_amount_mismatch");
  });

  it("Given protocol and transaction faults, When verified, Then each is refused with its reason before anything is simulated", async () => {
    const good = await payment([...computeBudget(), await transferTo(payTo), memo()]);
    const other = await generateKeyPairSigner();
    const otherFeePayer = await payment([...computeBudget(), await transferTo(payTo), memo()], {
      feePayer: other.address,
    });
    // The memo names `other` as a signer, who never signed.
    const unsigned = await payment([
      ...computeBudget(),
      await transferTo(payTo),
      { ...memo(), accounts: [{ address: other.address, role: 2 }] },
    ]);
    const noMemo = await payment([...computeBudget(), await transferTo(payTo)]);
    const noBudget = await payment([await transferTo(payTo), memo()]);
    const garbage = { ...good, payload: { transaction: "bm90IGEgdHJhbnNhY3Rpb24=" } };
    const cases: readonly (readonly [() => Promise<unknown>, string])[] = [
      [() => verifyPayment(context(), { ...good, x402Version: 1 }, requirements), "invalid_x402_version"],
      [
        () => verifyPayment(context(), good, { ...requirements, network: "solana:elsewhere" }),
        "invalid_exact_svm_network_mismatch",
      ],
      [
        () => verifyPayment(context(), good, { ...requirements, extra: { feePayer: other.address } }),
        "invalid_exact_svm_fee_payer_not_managed_by_facilitator",
      ],
      [() => verifyPayment(context(), otherFeePayer, requirements), "invalid_exact_svm_fee_payer_mismatch"],
      [() => verifyPayment(context(), unsigned, requirements), "invalid_exact_svm_payload_signature_invalid"],
      [() => verifyPayment(context(), noMemo, requirements), "invalid_exact_svm_payload_memo_count"],
      [
        () => verifyPayment(context(), noBudget, requirements),
        "invalid_exact_svm_payload_transaction_instructions_length",
      ],
      [
        () => verifyPayment(context(), garbage, requirements),
        "invalid_exact_svm_payload_transaction_could_not_be_decoded",
      ],
    ];

    const reasons = await Promise.all(cases.map(async ([verdict]) => (await refusalOf(verdict())).reason));

    expect(reasons).toEqual(cases.map(([, reason]) => reason));
  });
});
