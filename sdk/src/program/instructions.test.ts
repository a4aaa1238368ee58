import {
  AccountRole,
  type Address,
  address,
  createNoopSigner,
  getAddressDecoder,
  type Instruction,
} from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  getAgentCreateInstructionDataDecoder,
  getAgentTransferInstructionDataDecoder,
  getHandleRegisterInstructionDataDecoder,
  getPolicyUpdateInstructionDataDecoder,
  getTransferRecordInstructionDataDecoder,
  PENDING_APPROVE_DISCRIMINATOR,
  type PendingTransaction,
} from "../generated";
import { HandleValidationError } from "./handles";
import {
  buildAgentCreateInstruction,
  buildAgentTransferInstruction,
  buildConfigInitializeInstruction,
  buildHandleRegisterInstruction,
  buildPendingApproveInstruction,
  buildPendingCloseExpiredInstruction,
  buildPendingRejectInstruction,
  buildPolicyUpdateInstruction,
  buildTransferRecordInstruction,
  recipientHandleOf,
} from "./instructions";
import {
  findAgentPda,
  findConfigPda,
  findHandlePda,
  findPendingTransactionPda,
  findPolicyPda,
  findProgramDataPda,
  findReceiptPda,
} from "./pdas";
import { PolicyValidationError } from "./policy-codec";

const PROGRAM = AGENT_POLICY_PROGRAM_ADDRESS;
const SYSTEM = address("11111111111111111111111111111111");
const USDG = address("6Tq3cVBZfqLdUk1szjxGkgYMmovYBnjwXhrzQoZJHi9p");
const ASSETS = { USDG: { mint: USDG, decimals: 6 } };
/** A signer whose address is 32 bytes of `seed`: distinct, deterministic, never signs anything. */
const signer = (seed: number) => createNoopSigner(getAddressDecoder().decode(new Uint8Array(32).fill(seed)));
const ADMIN = signer(1);
const OWNER = signer(2);
const PAYER = signer(3);
const AGENT_SIGNER = signer(4);
const DESTINATION = address("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY7Ud6X7sEt2xWnL");
const TRANSFER_ID = Uint8Array.from({ length: 16 }, (_, i) => 200 + i);

const R = AccountRole.READONLY;
const W = AccountRole.WRITABLE;
const S = AccountRole.READONLY_SIGNER;
const WS = AccountRole.WRITABLE_SIGNER;

/** The instruction's accounts as [address, role] pairs, in order. */
function metas(instruction: Instruction): [Address, AccountRole][] {
  return (instruction.accounts ?? []).map((meta) => [meta.address, meta.role]);
}

const POLICY = {
  daily_limit_usdg: "1000",
  per_transaction_limit_usdg: "100",
  hitl_threshold_usdg: "50",
  assets: ["USDG"],
  allowed_recipients: ["*.acme"],
  active_hours: "08:00-20:00",
};

describe("instruction builders", () => {
  it("config_initialize: config, admin, the program's ProgramData, system program", async () => {
    const instruction = await buildConfigInitializeInstruction({ admin: ADMIN, registrar: PAYER.address });
    expect(instruction.programAddress).toBe(PROGRAM);
    expect(metas(instruction)).toEqual([
      [(await findConfigPda())[0], W],
      [ADMIN.address, WS],
      [(await findProgramDataPda())[0], R],
      [SYSTEM, R],
    ]);
  });

  it("handle_register: normalises the handle and derives its PDA", async () => {
    const instruction = await buildHandleRegisterInstruction({
      registrar: ADMIN,
      payer: PAYER,
      handle: "@Acme",
      kind: "business",
      wallet: OWNER.address,
    });
    expect(metas(instruction)).toEqual([
      [(await findConfigPda())[0], R],
      [ADMIN.address, S],
      [PAYER.address, WS],
      [(await findHandlePda({ handle: "acme" }))[0], W],
      [SYSTEM, R],
    ]);
    expect(getHandleRegisterInstructionDataDecoder().decode(instruction.data)).toMatchObject({
      handleArg: "acme",
      kind: 1,
      wallet: OWNER.address,
    });
    await expect(
      buildHandleRegisterInstruction({
        registrar: ADMIN,
        payer: PAYER,
        handle: "a..b",
        kind: "personal",
        wallet: OWNER.address,
      }),
    ).rejects.toBeInstanceOf(HandleValidationError);
  });

  it("agent_create: derives the agent, its policy and handles, and encodes the policy from API units", async () => {
    // Given an owner creating @Acme/Payroll-Bot with a policy in USDG
    const { instruction, agent, policy, agentHandle } = await buildAgentCreateInstruction({
      owner: OWNER,
      ownerHandle: "@Acme",
      name: "Payroll-Bot",
      agentSigner: AGENT_SIGNER.address,
      policy: POLICY,
      payer: PAYER,
      assets: ASSETS,
    });
    // Then the README's account order with every PDA derived from the normalised handles
    expect(agentHandle).toBe("acme/payroll-bot");
    expect(agent).toBe((await findAgentPda({ agentHandle: "acme/payroll-bot" }))[0]);
    expect(policy).toBe((await findPolicyPda({ agent }))[0]);
    expect(metas(instruction)).toEqual([
      [OWNER.address, S],
      [(await findHandlePda({ handle: "acme" }))[0], R],
      [agent, W],
      [policy, W],
      [(await findHandlePda({ handle: "acme/payroll-bot" }))[0], W],
      [PAYER.address, WS],
      [SYSTEM, R],
    ]);
    expect(getAgentCreateInstructionDataDecoder().decode(instruction.data)).toMatchObject({
      name: "payroll-bot",
      agentSigner: AGENT_SIGNER.address,
      policyArg: {
        perTransactionLimit: 100_000_000n,
        dailyLimit: 1_000_000_000n,
        hitlThreshold: 50_000_000n,
        activeStartMinute: 480,
        activeEndMinute: 1200,
        allowedMints: [USDG],
        recipientPatterns: [{ __kind: "Suffix", fields: ["acme"] }],
      },
    });
    // And a bad policy never becomes an instruction
    await expect(
      buildAgentCreateInstruction({
        owner: OWNER,
        ownerHandle: "acme",
        name: "bot",
        agentSigner: AGENT_SIGNER.address,
        policy: { ...POLICY, daily_limit_usdg: "-1" },
        payer: PAYER,
        assets: ASSETS,
      }),
    ).rejects.toBeInstanceOf(PolicyValidationError);
  });

  it("policy_update: owner, agent, policy; only the fields given", async () => {
    const [agent] = await findAgentPda({ agentHandle: "acme/bot" });
    const instruction = await buildPolicyUpdateInstruction({
      owner: OWNER,
      agent,
      update: { hitl_threshold_usdg: "75.5" },
      assets: ASSETS,
    });
    expect(metas(instruction)).toEqual([
      [OWNER.address, S],
      [agent, R],
      [(await findPolicyPda({ agent }))[0], W],
    ]);
    const { update } = getPolicyUpdateInstructionDataDecoder().decode(instruction.data);
    expect(update.hitlThreshold).toEqual({ __option: "Some", value: 75_500_000n });
    expect(update.dailyLimit).toEqual({ __option: "None" });
  });

  it("agent_transfer: the agent's ATA as source, the hold PDA at the next nonce, program id for no recipient handle", async () => {
    const [agent] = await findAgentPda({ agentHandle: "acme/bot" });
    const base = {
      agentSigner: AGENT_SIGNER,
      agent,
      nextHoldNonce: 3n,
      mint: USDG,
      destination: DESTINATION,
      amount: 5_000_000n,
      transferId: TRANSFER_ID,
      payer: PAYER,
    };
    const instruction = await buildAgentTransferInstruction(base);
    const [source] = await findAssociatedTokenPda({
      owner: agent,
      mint: USDG,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    });
    expect(metas(instruction)).toEqual([
      [AGENT_SIGNER.address, S],
      [agent, W],
      [(await findPolicyPda({ agent }))[0], W],
      [source, W],
      [USDG, R],
      [DESTINATION, W],
      [PROGRAM, R],
      [(await findPendingTransactionPda({ agent, nonce: 3n }))[0], W],
      [PAYER.address, WS],
      [TOKEN_2022_PROGRAM_ADDRESS, R],
      [SYSTEM, R],
    ]);
    expect(getAgentTransferInstructionDataDecoder().decode(instruction.data)).toMatchObject({
      amount: 5_000_000n,
      transferId: TRANSFER_ID,
    });
    // Given a recipient handle / Then its Handle PDA replaces the program id
    const named = await buildAgentTransferInstruction({ ...base, recipientHandle: "@Pay.Acme" });
    expect(metas(named)[6]).toEqual([(await findHandlePda({ handle: "pay.acme" }))[0], R]);
    await expect(buildAgentTransferInstruction({ ...base, transferId: new Uint8Array(8) })).rejects.toThrow(
      RangeError,
    );
  });

  it("pending_approve / pending_reject / pending_close_expired: every account from the decoded hold", async () => {
    const [agent] = await findAgentPda({ agentHandle: "acme/bot" });
    const [pending] = await findPendingTransactionPda({ agent, nonce: 0n });
    const handleBytes = new Uint8Array(64);
    handleBytes.set(new TextEncoder().encode("pay.acme"));
    const hold = {
      agent,
      source: USDG,
      destination: DESTINATION,
      mint: USDG,
      rentPayer: PAYER.address,
      recipientHandleLen: 8,
      recipientHandle: handleBytes,
    } as unknown as PendingTransaction;
    expect(recipientHandleOf(hold)).toBe("pay.acme");

    const approve = await buildPendingApproveInstruction({ owner: OWNER, pending, hold });
    expect(approve.data.subarray(0, 8)).toEqual(PENDING_APPROVE_DISCRIMINATOR);
    expect(metas(approve)).toEqual([
      [OWNER.address, S],
      [agent, W],
      [(await findPolicyPda({ agent }))[0], W],
      [pending, W],
      [USDG, W],
      [USDG, R],
      [DESTINATION, W],
      [(await findHandlePda({ handle: "pay.acme" }))[0], R],
      [PAYER.address, W],
      [TOKEN_2022_PROGRAM_ADDRESS, R],
    ]);
    const withoutHandle = await buildPendingApproveInstruction({
      owner: OWNER,
      pending,
      hold: { ...hold, recipientHandleLen: 0 },
    });
    expect(metas(withoutHandle)[7]).toEqual([PROGRAM, R]);

    expect(metas(buildPendingRejectInstruction({ owner: OWNER, pending, hold }))).toEqual([
      [OWNER.address, S],
      [agent, W],
      [pending, W],
      [PAYER.address, W],
    ]);
    expect(metas(buildPendingCloseExpiredInstruction({ pending, hold }))).toEqual([
      [agent, W],
      [pending, W],
      [PAYER.address, W],
    ]);
  });

  it("transfer_record: the receipt PDA of the transfer id; memos over 256 bytes refused", async () => {
    const input = {
      sender: OWNER,
      payer: PAYER,
      transferId: TRANSFER_ID,
      confidential: true,
      memo: new Uint8Array([1, 2, 3]),
      source: USDG,
      destination: DESTINATION,
      mint: USDG,
    };
    const instruction = await buildTransferRecordInstruction(input);
    expect(metas(instruction)).toEqual([
      [OWNER.address, S],
      [(await findReceiptPda({ sender: OWNER.address, transferId: TRANSFER_ID }))[0], W],
      [PAYER.address, WS],
      [USDG, R],
      [DESTINATION, R],
      [USDG, R],
      [SYSTEM, R],
    ]);
    expect(getTransferRecordInstructionDataDecoder().decode(instruction.data)).toMatchObject({
      transferId: TRANSFER_ID,
      confidential: true,
      memo: new Uint8Array([1, 2, 3]),
    });
    await expect(buildTransferRecordInstruction({ ...input, memo: new Uint8Array(257) })).rejects.toThrow(
      RangeError,
    );
    await expect(
      buildTransferRecordInstruction({ ...input, memo: new Uint8Array(256) }),
    ).resolves.toBeDefined();
  });

  it("builds for another program id when asked", async () => {
    const programAddress = TOKEN_2022_PROGRAM_ADDRESS;
    const instruction = await buildConfigInitializeInstruction({
      admin: ADMIN,
      registrar: PAYER.address,
      programAddress,
    });
    expect(instruction.programAddress).toBe(programAddress);
    expect(metas(instruction)[0]?.[0]).toBe((await findConfigPda({ programAddress }))[0]);
  });
});
