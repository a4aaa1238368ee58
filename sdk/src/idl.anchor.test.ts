/**
 * Anchor's own TypeScript coder (@coral-xyz/anchor 0.32.1) reading our IDL: it must decode account
 * bytes laid out by the README's offsets (built here by hand, not with the IDL), decode and parse
 * event logs like our parser, and encode instruction data byte for byte like the Codama client.
 * That is what "Anchor clients work against the program" means in practice.
 */
import {
  BN,
  BorshAccountsCoder,
  BorshCoder,
  BorshEventCoder,
  BorshInstructionCoder,
  EventParser,
  type Idl,
  web3,
} from "@coral-xyz/anchor";
import {
  type Address,
  type Encoder,
  getAddressDecoder,
  getAddressEncoder,
  getI64Encoder,
  getU8Encoder,
  getU16Encoder,
  getU32Encoder,
  getU64Encoder,
  none,
  type ReadonlyUint8Array,
  some,
} from "@solana/kit";
import { describe, expect, it } from "vitest";
import { readIdl } from "../scripts/idl-layout";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  getAgentCreateInstructionDataEncoder,
  getAgentDecoder,
  getAgentTransferInstructionDataEncoder,
  getConfigDecoder,
  getConfigInitializeInstructionDataEncoder,
  getHandleDecoder,
  getHandleRegisterInstructionDataEncoder,
  getPendingApproveInstructionDataEncoder,
  getPendingTransactionDecoder,
  getPolicyDecoder,
  getPolicyUpdateInstructionDataEncoder,
  getReceiptDecoder,
  getTransferRecordInstructionDataEncoder,
  type PolicyParamsArgs,
} from "./generated";
import { parseAgentPolicyEvents } from "./program";

const idl = readIdl() as unknown as Idl;
const key = (seed: number) => getAddressDecoder().decode(new Uint8Array(32).fill(seed));
const pk = (address: Address) => new web3.PublicKey(address);
const bytes = (data: ReadonlyUint8Array) => Buffer.from(data);
const TRANSFER_ID = Array.from({ length: 16 }, (_, i) => 0xa0 + i);

/** Account bytes written at the README's offsets: the layout as documented, independent of the IDL. */
class AccountBytes {
  readonly data: Uint8Array;

  constructor(size: number, account: string) {
    this.data = new Uint8Array(size);
    const discriminator = (idl.accounts ?? []).find((candidate) => candidate.name === account)?.discriminator;
    this.data.set(discriminator ?? []);
  }
  // Each writes its value at `offset`, little-endian, and returns these bytes for the next field.
  readonly u8 = this.field(getU8Encoder());
  readonly u16 = this.field(getU16Encoder());
  readonly u32 = this.field(getU32Encoder());
  readonly u64 = this.field(getU64Encoder());
  readonly i64 = this.field(getI64Encoder());
  readonly key = this.field(getAddressEncoder());
  raw(offset: number, value: ArrayLike<number>): this {
    this.data.set(value, offset);
    return this;
  }

  private field<T>(encoder: Encoder<T>) {
    return (offset: number, value: T): this => {
      encoder.write(value, this.data, offset);
      return this;
    };
  }
}

const ascii = (text: string) => new TextEncoder().encode(text);
const asNumber = (value: unknown) => (value as BN).toString();

describe("anchor 0.32 coder against our IDL", () => {
  const accounts = new BorshAccountsCoder(idl);

  it("decodes a Config and a Handle laid out at the README offsets", () => {
    const config = new AccountBytes(208, "Config").key(8, key(1)).key(40, key(2)).u8(72, 254).u8(73, 1);
    const decoded = accounts.decode("Config", Buffer.from(config.data));
    expect(decoded.admin.toBase58()).toBe(key(1));
    expect(decoded.registrar.toBase58()).toBe(key(2));
    expect([decoded.bump, decoded.layout_version]).toEqual([254, 1]);
    expect(getConfigDecoder().decode(config.data)).toMatchObject({
      admin: key(1),
      registrar: key(2),
      bump: 254,
    });

    const handle = new AccountBytes(112, "Handle")
      .key(8, key(3))
      .u8(40, 2)
      .u8(41, 250)
      .u8(42, 8)
      .raw(43, ascii("acme/bot"));
    const decodedHandle = accounts.decode("Handle", Buffer.from(handle.data));
    expect(decodedHandle.wallet.toBase58()).toBe(key(3));
    expect([decodedHandle.kind, decodedHandle.bump, decodedHandle.handle_len]).toEqual([2, 250, 8]);
    expect(Buffer.from(decodedHandle.handle.slice(0, 8)).toString()).toBe("acme/bot");
    expect(getHandleDecoder().decode(handle.data)).toMatchObject({ wallet: key(3), kind: 2, handleLen: 8 });
  });

  it("decodes an Agent, whose u64 sits at an unaligned offset (172)", () => {
    const agent = new AccountBytes(224, "Agent")
      .key(8, key(4))
      .key(40, key(5))
      .raw(72, new Uint8Array(32).fill(7))
      .u8(104, 255)
      .u8(105, 254)
      .u8(106, 1)
      .u8(107, 8)
      .raw(108, ascii("acme/bot"))
      .u64(172, 0x0102_0304_0506_0708n)
      .u32(180, 3)
      .i64(184, -5n);
    const decoded = accounts.decode("Agent", Buffer.from(agent.data));
    expect(decoded.owner.toBase58()).toBe(key(4));
    expect(decoded.agent_signer.toBase58()).toBe(key(5));
    expect([decoded.bump, decoded.policy_bump, decoded.status, decoded.handle_len]).toEqual([255, 254, 1, 8]);
    expect(asNumber(decoded.next_hold_nonce)).toBe(0x0102_0304_0506_0708n.toString());
    expect(decoded.open_holds).toBe(3);
    expect(asNumber(decoded.created_at)).toBe("-5");
    expect(getAgentDecoder().decode(agent.data)).toMatchObject({
      nextHoldNonce: 0x0102_0304_0506_0708n,
      openHolds: 3,
      createdAt: -5n,
    });
  });

  it("decodes a Policy: limits, window, mints and the pattern slots", () => {
    const policy = new AccountBytes(1544, "Policy")
      .key(8, key(6))
      .u32(40, 2)
      .u16(44, 540)
      .u16(46, 1050)
      .u64(48, 100_000_000n)
      .u64(56, 1_000_000_000n)
      .u64(64, 50_000_000n)
      .u32(72, 86_400)
      .u8(76, 1)
      .u8(77, 2)
      .u8(78, 253)
      .i64(80, 20_000n)
      .u64(88, 42n)
      .i64(96, 1_700_000_000n)
      .key(104, key(9))
      // slot 0 at 232: suffix "acme"; slot 1 at 298: address key(10)
      .u8(232, 1)
      .u8(233, 4)
      .raw(234, ascii("acme"))
      .u8(298, 2)
      .u8(299, 32)
      .key(300, key(10))
      .raw(1288, [0xee]);
    const decoded = accounts.decode("Policy", Buffer.from(policy.data));
    expect(decoded.version).toBe(2);
    expect([decoded.active_start_minute, decoded.active_end_minute]).toEqual([540, 1050]);
    expect(
      [decoded.per_transaction_limit, decoded.daily_limit, decoded.hitl_threshold].map(asNumber),
    ).toEqual(["100000000", "1000000000", "50000000"]);
    expect([
      decoded.approval_window_seconds,
      decoded.mint_count,
      decoded.pattern_count,
      decoded.bump,
    ]).toEqual([86_400, 1, 2, 253]);
    expect([decoded.day_index, decoded.spent_today, decoded.updated_at].map(asNumber)).toEqual([
      "20000",
      "42",
      "1700000000",
    ]);
    expect(decoded.allowed_mints[0].toBase58()).toBe(key(9));
    expect(decoded.recipient_patterns[0]).toMatchObject({ kind: 1, len: 4 });
    expect(Buffer.from(decoded.recipient_patterns[0].value.slice(0, 4)).toString()).toBe("acme");
    expect(decoded.recipient_patterns[1]).toMatchObject({ kind: 2, len: 32 });
    expect(decoded.spend_ciphertext[0]).toBe(0xee);
    const generated = getPolicyDecoder().decode(policy.data);
    expect(generated).toMatchObject({
      dailyLimit: 1_000_000_000n,
      spentToday: 42n,
      mintCount: 1,
      patternCount: 2,
    });
    expect(generated.recipientPatterns[1]?.value.slice(0, 32)).toEqual(
      new Uint8Array(getAddressEncoder().encode(key(10))),
    );
  });

  it("decodes a PendingTransaction and a Receipt", () => {
    const pending = new AccountBytes(416, "PendingTransaction")
      .key(8, key(11))
      .u64(40, 7n)
      .key(48, key(12))
      .key(80, key(13))
      .key(112, key(14))
      .u64(144, 5_000_000n)
      .i64(152, 100n)
      .i64(160, 86_500n)
      .key(168, key(15))
      .u8(200, 8)
      .u8(201, 252)
      .u8(202, 1)
      .raw(208, ascii("pay.acme"))
      .raw(272, TRANSFER_ID);
    const decoded = accounts.decode("PendingTransaction", Buffer.from(pending.data));
    expect(
      [decoded.agent, decoded.source, decoded.destination, decoded.mint, decoded.rent_payer].map((k) =>
        k.toBase58(),
      ),
    ).toEqual([key(11), key(12), key(13), key(14), key(15)]);
    expect([decoded.nonce, decoded.amount, decoded.requested_at, decoded.expires_at].map(asNumber)).toEqual([
      "7",
      "5000000",
      "100",
      "86500",
    ]);
    expect([decoded.recipient_handle_len, decoded.bump, decoded.confidential]).toEqual([8, 252, 1]);
    expect(decoded.transfer_id).toEqual(TRANSFER_ID);
    expect(getPendingTransactionDecoder().decode(pending.data)).toMatchObject({
      nonce: 7n,
      expiresAt: 86_500n,
    });

    const receipt = new AccountBytes(112, "Receipt")
      .raw(8, TRANSFER_ID)
      .key(24, key(16))
      .i64(56, 123n)
      .u8(64, 251)
      .key(72, key(17))
      .u64(104, 456n);
    const decodedReceipt = accounts.decode("Receipt", Buffer.from(receipt.data));
    expect(decodedReceipt.transfer_id).toEqual(TRANSFER_ID);
    expect(decodedReceipt.sender.toBase58()).toBe(key(16));
    expect(decodedReceipt.rent_payer.toBase58()).toBe(key(17));
    expect([
      asNumber(decodedReceipt.recorded_at),
      decodedReceipt.bump,
      asNumber(decodedReceipt.recorded_slot),
    ]).toEqual(["123", 251, "456"]);
    expect(getReceiptDecoder().decode(receipt.data)).toMatchObject({
      sender: key(16),
      recordedAt: 123n,
      rentPayer: key(17),
      recordedSlot: 456n,
    });
  });

  it("decodes events from their bytes, and parses the same logs as our parser", () => {
    const discriminator = (name: string) =>
      (idl.events ?? []).find((event) => event.name === name)?.discriminator ?? [];
    const handleRegistered = Buffer.concat([
      Buffer.from(discriminator("HandleRegistered")),
      Buffer.from([4, 0, 0, 0]),
      Buffer.from("acme"),
      Buffer.from(getAddressEncoder().encode(key(20))),
      Buffer.from([1]),
    ]);
    const transferExecuted = Buffer.concat([
      Buffer.from(discriminator("TransferExecuted")),
      Buffer.from(getAddressEncoder().encode(key(21))),
      Buffer.from(TRANSFER_ID),
      ...[22, 23, 24].map((seed) => Buffer.from(getAddressEncoder().encode(key(seed)))),
      Buffer.from([1]),
    ]);
    const events = new BorshEventCoder(idl);
    const decoded = events.decode(handleRegistered.toString("base64"));
    expect(decoded?.name).toBe("HandleRegistered");
    expect(decoded?.data).toMatchObject({ handle: "acme", kind: 1 });
    expect((decoded?.data.wallet as web3.PublicKey | undefined)?.toBase58()).toBe(key(20));

    const program = AGENT_POLICY_PROGRAM_ADDRESS;
    const logs = [
      `Program ${program} invoke [1]`,
      `Program data: ${handleRegistered.toString("base64")}`,
      "Program TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb invoke [2]",
      "Program TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb success",
      `Program data: ${transferExecuted.toString("base64")}`,
      `Program ${program} success`,
    ];
    const anchorEvents = [
      ...new EventParser(new web3.PublicKey(program), new BorshCoder(idl)).parseLogs(logs),
    ];
    const ours = parseAgentPolicyEvents(logs).events;
    expect(anchorEvents.map((event) => event.name)).toEqual(["HandleRegistered", "TransferExecuted"]);
    expect(ours.map((event) => event.name)).toEqual(["HandleRegistered", "TransferExecuted"]);
    expect(ours[1]).toMatchObject({ data: { agent: key(21), destination: key(23), fromHold: true } });
    expect(anchorEvents[1]?.data.from_hold).toBe(true);
  });

  describe("instruction data: anchor's coder and the Codama client agree byte for byte", () => {
    const instructions = new BorshInstructionCoder(idl);

    it("config_initialize and handle_register", () => {
      expect(instructions.encode("config_initialize", { registrar: pk(key(1)) })).toEqual(
        bytes(getConfigInitializeInstructionDataEncoder().encode({ registrar: key(1) })),
      );
      expect(
        instructions.encode("handle_register", { handle: "pay.acme", kind: 1, wallet: pk(key(2)) }),
      ).toEqual(
        bytes(
          getHandleRegisterInstructionDataEncoder().encode({
            handleArg: "pay.acme",
            kind: 1,
            wallet: key(2),
          }),
        ),
      );
    });

    it("agent_create with every RecipientPattern variant", () => {
      const policy: PolicyParamsArgs = {
        perTransactionLimit: 100_000_000n,
        dailyLimit: 2n ** 64n - 1n,
        hitlThreshold: 0n,
        activeStartMinute: 1320,
        activeEndMinute: 360,
        approvalWindowSeconds: 604_800,
        allowedMints: [key(3), key(4)],
        recipientPatterns: [
          { __kind: "Name", fields: ["acme/bot"] },
          { __kind: "Suffix", fields: ["acme"] },
          { __kind: "Address", fields: [key(5)] },
        ],
      };
      const anchor = instructions.encode("agent_create", {
        name: "payroll-bot",
        agent_signer: pk(key(6)),
        policy: {
          per_transaction_limit: new BN("100000000"),
          daily_limit: new BN("18446744073709551615"),
          hitl_threshold: new BN(0),
          active_start_minute: 1320,
          active_end_minute: 360,
          approval_window_seconds: 604_800,
          allowed_mints: [pk(key(3)), pk(key(4))],
          recipient_patterns: [
            { Name: { 0: "acme/bot" } },
            { Suffix: { 0: "acme" } },
            { Address: { 0: pk(key(5)) } },
          ],
        },
      });
      const codama = getAgentCreateInstructionDataEncoder().encode({
        name: "payroll-bot",
        agentSigner: key(6),
        policyArg: policy,
      });
      expect(anchor).toEqual(bytes(codama));
    });

    it("policy_update with some fields present and others absent", () => {
      const anchor = instructions.encode("policy_update", {
        update: {
          per_transaction_limit: null,
          daily_limit: new BN(5),
          hitl_threshold: null,
          active_start_minute: 0,
          active_end_minute: 0,
          approval_window_seconds: null,
          allowed_mints: [],
          recipient_patterns: null,
        },
      });
      const codama = getPolicyUpdateInstructionDataEncoder().encode({
        update: {
          perTransactionLimit: none(),
          dailyLimit: some(5n),
          hitlThreshold: none(),
          activeStartMinute: some(0),
          activeEndMinute: some(0),
          approvalWindowSeconds: none(),
          allowedMints: some([]),
          recipientPatterns: none(),
        },
      });
      expect(anchor).toEqual(bytes(codama));
    });

    it("agent_transfer, pending_approve and transfer_record", () => {
      expect(
        instructions.encode("agent_transfer", {
          amount: new BN("18446744073709551615"),
          transfer_id: TRANSFER_ID,
        }),
      ).toEqual(
        bytes(
          getAgentTransferInstructionDataEncoder().encode({
            amount: 2n ** 64n - 1n,
            transferId: new Uint8Array(TRANSFER_ID),
          }),
        ),
      );
      expect(instructions.encode("pending_approve", {})).toEqual(
        bytes(getPendingApproveInstructionDataEncoder().encode({})),
      );
      const memo = Buffer.from([1, 2, 3, 250]);
      expect(
        instructions.encode("transfer_record", { transfer_id: TRANSFER_ID, confidential: true, memo }),
      ).toEqual(
        bytes(
          getTransferRecordInstructionDataEncoder().encode({
            transferId: new Uint8Array(TRANSFER_ID),
            confidential: true,
            memo: new Uint8Array(memo),
          }),
        ),
      );
    });
  });
});
