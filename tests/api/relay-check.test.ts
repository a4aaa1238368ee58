/**
 * The relay's static check of a self-custody agent's transaction (issue 8), on real transactions
 * built with kit and the SDK's builders: what passes (the public and confidential transfer flows,
 * proof contexts funded by the fee payer) and each way of using the fee payer for more than fees
 * and rent, or of passing off another agent's transaction, with the reason and the instruction,
 * account or signature the refusal names.
 *
 * Here rather than beside the checker because `@solana-program/system` is a dependency of this
 * workspace, not of the API's.
 */

import { checkRelayedTransaction, type RelayCheck, type RelayPolicyContext } from "@cpay/api/relay-check";
import {
  AGENT_POLICY_PROGRAM_ADDRESS,
  buildAgentTransferInstruction,
  buildPolicyUpdateInstruction,
  buildTransferRecordInstruction,
  findAgentPda,
  getAgentConfidentialCloseContextsInstruction,
  getAgentConfidentialTransferInstruction,
} from "@cpay/sdk";
import {
  AccountRole,
  type Address,
  type AddressesByLookupTableAddress,
  appendTransactionMessageInstructions,
  blockhash,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionDecoder,
  getTransactionEncoder,
  getU32Encoder,
  getU64Encoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
  type TransactionSigner,
} from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

const ZK_ELGAMAL_PROOF = "ZkE1Gama1Proof11111111111111111111111111111" as Address;
const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111" as Address;
const SYSTEM = "11111111111111111111111111111111" as Address;
const MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;
const LOADER = "BPFLoaderUpgradeab1e11111111111111111111111" as Address;
const LIFETIME = {
  blockhash: blockhash("EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N"),
  lastValidBlockHeight: 0n,
};
/** The runtime's formula: (128 + space) bytes x 3480 lamports/byte-year x 2 years. */
const rentExemptMinimum = (space: number) => BigInt((128 + space) * 6960);
/** A PubkeyValidity context: 33-byte header + 32-byte context. */
const CONTEXT_SPACE = 65;

describe("checkRelayedTransaction", () => {
  let feePayer: TransactionSigner;
  let agentSigner: KeyPairSigner;
  let stranger: KeyPairSigner;
  let agent: Address;
  let otherAgent: Address;
  let usdg: Address;
  let recipient: Address;
  let recipientAta: Address;
  let agentAta: Address;
  let ctx: RelayPolicyContext;
  const transferId = new Uint8Array(16).fill(7);

  beforeAll(async () => {
    const reserve = await generateKeyPairSigner();
    feePayer = createNoopSigner(reserve.address);
    [agentSigner, stranger] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    [agent] = await findAgentPda({ agentHandle: "owner/bot" });
    [otherAgent] = await findAgentPda({ agentHandle: "owner/other" });
    usdg = (await generateKeyPairSigner()).address;
    recipient = (await generateKeyPairSigner()).address;
    const tokenProgram = TOKEN_2022_PROGRAM_ADDRESS;
    [recipientAta] = await findAssociatedTokenPda({ owner: recipient, mint: usdg, tokenProgram });
    [agentAta] = await findAssociatedTokenPda({ owner: agent, mint: usdg, tokenProgram });
    ctx = {
      feePayer: feePayer.address,
      programId: AGENT_POLICY_PROGRAM_ADDRESS,
      usdgMint: usdg,
      agent: { pda: agent, signer: agentSigner.address },
      rentExemptMinimum,
    };
  });

  /** A legacy transaction paid by `payer`, signed by every key signer its instructions carry. */
  async function wire(
    instructions: readonly Instruction[],
    options: { payer?: TransactionSigner } = {},
  ): Promise<Uint8Array> {
    const message = pipe(
      createTransactionMessage({ version: "legacy" }),
      (m) => setTransactionMessageFeePayerSigner(options.payer ?? feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(LIFETIME, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    return encode(await partiallySignTransactionMessageWithSigners(message));
  }

  /** The same as a v0 transaction, its accounts found in `lookups` loaded from those tables. */
  async function wireV0(
    instructions: readonly Instruction[],
    lookups: AddressesByLookupTableAddress = {},
  ): Promise<Uint8Array> {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(LIFETIME, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
      (m) => compressTransactionMessageUsingAddressLookupTables(m, lookups),
    );
    return encode(await partiallySignTransactionMessageWithSigners(message));
  }

  function encode(transaction: Transaction): Uint8Array {
    return new Uint8Array(getTransactionEncoder().encode(transaction));
  }

  function ata(owner: Address = recipient): Instruction {
    return getCreateAssociatedTokenIdempotentInstruction({
      payer: feePayer,
      ata: owner === recipient ? recipientAta : agentAta,
      owner,
      mint: usdg,
    });
  }

  function agentTransfer(
    overrides: Partial<Parameters<typeof buildAgentTransferInstruction>[0]> = {},
  ): Promise<Instruction> {
    return buildAgentTransferInstruction({
      agentSigner,
      agent,
      nextHoldNonce: 0n,
      mint: usdg,
      destination: recipientAta,
      amount: 1_000_000n,
      transferId,
      payer: feePayer,
      ...overrides,
    });
  }

  function transferRecord(sender: TransactionSigner = agentSigner): Promise<Instruction> {
    return buildTransferRecordInstruction({
      sender,
      payer: feePayer,
      transferId,
      confidential: false,
      memo: new Uint8Array(),
      source: agentAta,
      destination: recipientAta,
      mint: usdg,
    });
  }

  function createContext(
    context: TransactionSigner,
    overrides: { lamports?: bigint; owner?: Address; space?: number } = {},
  ): Instruction {
    const space = overrides.space ?? CONTEXT_SPACE;
    return getCreateAccountInstruction({
      payer: feePayer,
      newAccount: context,
      lamports: overrides.lamports ?? rentExemptMinimum(space),
      space,
      programAddress: overrides.owner ?? ZK_ELGAMAL_PROOF,
    });
  }

  /** ZK ElGamal VerifyPubkeyValidity into `context` (the checker reads no proof bytes). */
  function verifyProof(context: Address, authority: Address): Instruction {
    return {
      programAddress: ZK_ELGAMAL_PROOF,
      accounts: [
        { address: context, role: AccountRole.WRITABLE },
        { address: authority, role: AccountRole.READONLY },
      ],
      data: new Uint8Array([4, ...new Uint8Array(64).fill(1)]),
    };
  }

  function closeContextState(
    context: Address,
    destination: Address,
    authority: TransactionSigner,
  ): Instruction {
    return {
      programAddress: ZK_ELGAMAL_PROOF,
      accounts: [
        { address: context, role: AccountRole.WRITABLE },
        { address: destination, role: AccountRole.WRITABLE },
        { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
      ] as Instruction["accounts"],
      data: new Uint8Array([0]),
    };
  }

  function computeBudget(tag: 2 | 3, value: bigint): Instruction {
    const encoded = tag === 2 ? getU32Encoder().encode(Number(value)) : getU64Encoder().encode(value);
    return { programAddress: COMPUTE_BUDGET, data: new Uint8Array([tag, ...encoded]) };
  }

  function withAccount(instruction: Instruction, meta: NonNullable<Instruction["accounts"]>[number]) {
    return { ...instruction, accounts: [...(instruction.accounts ?? []), meta] };
  }

  function refusal(check: RelayCheck): { reason: string; message: string } {
    if (check.ok) throw new Error("expected a refusal, the transaction passed");
    return check;
  }

  describe("Given transactions that use the fee payer for fees and rent only", () => {
    it("When a public agent transfer (ATA create, agent_transfer, transfer_record) is checked, Then it passes with 2 signatures and a 10000-lamport fee", async () => {
      const bytes = await wire([ata(), await agentTransfer(), await transferRecord()]);

      const check = checkRelayedTransaction(bytes, ctx);

      expect(check).toMatchObject({
        ok: true,
        signatures: 2,
        feeLamports: 10_000n,
        rentLamports: 0n,
        feePayerIndex: 0,
      });
      expect(check.ok && check.messageBytes).toEqual(
        new Uint8Array(getTransactionDecoder().decode(bytes).messageBytes),
      );
    });

    it("When a context is created by the fee payer and verified into, Then it passes and the deposit is the rent", async () => {
      const context = await generateKeyPairSigner();
      const bytes = await wire([
        computeBudget(2, 200_000n),
        createContext(context),
        verifyProof(context.address, agent),
      ]);

      const check = checkRelayedTransaction(bytes, ctx);

      expect(check).toMatchObject({ ok: true, signatures: 2, feeLamports: 10_000n });
      expect(check.ok && check.rentLamports).toBe(rentExemptMinimum(CONTEXT_SPACE));
    });

    it("When a confidential transfer returns its contexts' rent to the fee payer, Then it passes", async () => {
      const addresses = await Promise.all(Array.from({ length: 8 }, () => generateKeyPairSigner()));
      const [policy, equality, validity, range, limitTx, limitDay, limitRange, pending] = addresses.map(
        (signer) => signer.address,
      ) as Address[];
      const confidentialTransfer = getAgentConfidentialTransferInstruction({
        agentSigner,
        agent,
        policy: policy as Address,
        source: agentAta,
        mint: usdg,
        destination: recipientAta,
        equalityProof: equality as Address,
        ciphertextValidityProof: validity as Address,
        rangeProof: range as Address,
        limitEqualityTransaction: limitTx as Address,
        limitEqualityDaily: limitDay as Address,
        limitRangeProof: limitRange as Address,
        contextRentReceiver: feePayer.address,
        pending: pending as Address,
        payer: feePayer,
        transferId,
        newSourceDecryptableAvailableBalance: new Uint8Array(36),
        spendDecryptable: new Uint8Array(36),
        spendDecryptableNextDay: new Uint8Array(36),
        requestHold: false,
      });
      const closeContexts = withAccount(
        getAgentConfidentialCloseContextsInstruction({
          authority: agentSigner,
          agent,
          rentReceiver: feePayer.address,
        }),
        { address: equality as Address, role: AccountRole.WRITABLE },
      );
      const closeOwn = closeContextState(validity as Address, feePayer.address, agentSigner);

      const check = checkRelayedTransaction(await wire([confidentialTransfer, closeContexts, closeOwn]), ctx);

      expect(check).toMatchObject({ ok: true, signatures: 2 });
    });

    it("When the compute-unit price is zero, Then it passes", async () => {
      const bytes = await wire([computeBudget(3, 0n), await agentTransfer()]);

      expect(checkRelayedTransaction(bytes, ctx).ok).toBe(true);
    });
  });

  describe("Given the fee payer used beyond fees and rent", () => {
    it("When a System Transfer moves its lamports, Then fee_payer_misused names the instruction", async () => {
      const drain = getTransferSolInstruction({ source: feePayer, destination: recipient, amount: 1n });
      const bytes = await wire([await agentTransfer(), drain]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain("instruction 1 (System Transfer) would move the fee payer's lamports");
    });

    it("When it is appended to agent_transfer as an extra writable account, Then fee_payer_misused names the instruction and the position", async () => {
      const extra = withAccount(await agentTransfer(), {
        address: feePayer.address,
        role: AccountRole.WRITABLE,
      });

      const { reason, message } = refusal(checkRelayedTransaction(await wire([extra]), ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain(
        "instruction 0 (agent-policy agent_transfer) passes the fee payer as account 11 (an extra account)",
      );
    });

    it("When it is agent_transfer's destination, Then fee_payer_misused names the role", async () => {
      const bytes = await wire([ata(), await agentTransfer({ destination: feePayer.address })]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain(
        "instruction 1 (agent-policy agent_transfer) passes the fee payer as account 5 (destination)",
      );
    });

    it("When it is a proof context's authority, Then fee_payer_misused names the verify instruction", async () => {
      const context = await generateKeyPairSigner();
      const bytes = await wire([createContext(context), verifyProof(context.address, feePayer.address)]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain(
        "instruction 1 (ZK ElGamal VerifyPubkeyValidity) passes the fee payer as account 1 (context_state_authority)",
      );
    });

    it("When a context the reserve funds is verified with another authority than the agent's PDA, Then not_this_agent names the verify", async () => {
      const context = await generateKeyPairSigner();
      const stranger = await generateKeyPairSigner();
      const bytes = await wire([createContext(context), verifyProof(context.address, stranger.address)]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("not_this_agent");
      expect(message).toContain("instruction 1 (ZK ElGamal VerifyPubkeyValidity)");
    });

    it("When a closed context's rent goes anywhere but the fee payer, Then fee_payer_misused names the close", async () => {
      const context = await generateKeyPairSigner();
      const elsewhere = await generateKeyPairSigner();
      const bytes = await wire([closeContextState(context.address, elsewhere.address, agentSigner)]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain("instruction 0 (ZK ElGamal CloseContextState) sends a context's rent");
    });

    it("When close_contexts sends the contexts' rent to the agent's own choice, Then fee_payer_misused names the rent receiver", async () => {
      const elsewhere = await generateKeyPairSigner();
      const bytes = await wire([
        getAgentConfidentialCloseContextsInstruction({
          authority: agentSigner,
          agent,
          rentReceiver: elsewhere.address,
        }),
      ]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain("(rent_receiver); it must come back to the fee payer");
    });

    it("When CreateAccount deposits more than the rent-exempt minimum, Then fee_payer_misused names it", async () => {
      const context = await generateKeyPairSigner();
      const bytes = await wire([createContext(context, { lamports: rentExemptMinimum(CONTEXT_SPACE) + 1n })]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain("instruction 0 (System CreateAccount) deposits");
      expect(message).toContain("rent-exempt minimum");
    });

    it("When CreateAccount makes an account the System program owns, Then fee_payer_misused names the owner", async () => {
      const account = await generateKeyPairSigner();
      const bytes = await wire([await agentTransfer(), createContext(account, { owner: SYSTEM })]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain(
        `instruction 1 (System CreateAccount) would give the fee payer's lamports to an account owned by ${SYSTEM}`,
      );
    });

    it("When a context the reserve funds is not verified into in the same transaction, Then account_not_consumed names it", async () => {
      const context = await generateKeyPairSigner();
      const bytes = await wire([await agentTransfer(), createContext(context)]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("account_not_consumed");
      expect(message).toContain(
        `instruction 1 creates ${context.address}, which this transaction does not consume`,
      );
    });

    it("When a loader buffer the reserve funds is not initialized for the agent in the same transaction, Then account_not_consumed names it", async () => {
      const buffer = await generateKeyPairSigner();
      const initialize = (authority: Address): Instruction => ({
        programAddress: LOADER,
        accounts: [
          { address: buffer.address, role: AccountRole.WRITABLE },
          { address: authority, role: AccountRole.READONLY },
        ],
        data: new Uint8Array(4),
      });
      const bare = await wire([createContext(buffer, { owner: LOADER, space: 1_000 })]);
      expect(refusal(checkRelayedTransaction(bare, ctx)).reason).toBe("account_not_consumed");

      const forAgent = await wire([
        createContext(buffer, { owner: LOADER, space: 1_000 }),
        initialize(agentSigner.address),
      ]);
      expect(checkRelayedTransaction(forAgent, ctx)).toMatchObject({ ok: true });
    });

    it("When SetComputeUnitPrice asks a priority fee, Then fee_payer_misused names it", async () => {
      const bytes = await wire([computeBudget(3, 1n), await agentTransfer()]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_misused");
      expect(message).toContain(
        "instruction 0 (Compute Budget SetComputeUnitPrice) sets a priority fee of 1",
      );
    });
  });

  describe("Given instructions outside the allowlist", () => {
    it("When an unknown program is called, Then unknown_program names the instruction and the program", async () => {
      const memo: Instruction = { programAddress: MEMO, data: new TextEncoder().encode("hi") };
      const bytes = await wire([await agentTransfer(), memo]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("unknown_program");
      expect(message).toContain(`instruction 1 calls program ${MEMO}`);
    });

    it("When the agent's key sends policy_update, Then instruction_not_allowed names it", async () => {
      const update = await buildPolicyUpdateInstruction({
        owner: agentSigner,
        agent,
        update: {},
        assets: { USDG: { mint: usdg, decimals: 6 } },
      });

      const { reason, message } = refusal(checkRelayedTransaction(await wire([update]), ctx));

      expect(reason).toBe("instruction_not_allowed");
      expect(message).toContain("instruction 0 (agent-policy policy_update) is not relayed");
    });

    it("When an associated token account of another mint is created, Then instruction_not_allowed names the mint", async () => {
      const other = (await generateKeyPairSigner()).address;
      const [otherAta] = await findAssociatedTokenPda({
        owner: recipient,
        mint: other,
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      });
      const create = getCreateAssociatedTokenIdempotentInstruction({
        payer: feePayer,
        ata: otherAta,
        owner: recipient,
        mint: other,
      });

      const { reason, message } = refusal(checkRelayedTransaction(await wire([create]), ctx));

      expect(reason).toBe("instruction_not_allowed");
      expect(message).toContain(`instruction 0 (Associated Token CreateIdempotent) names ${other} as mint`);
    });
  });

  describe("Given signers other than the fee payer and this agent", () => {
    it("When a random keypair signs an extra account of agent_transfer, Then unexpected_signer names the account and the instruction", async () => {
      const extra = withAccount(await agentTransfer(), {
        address: stranger.address,
        role: AccountRole.READONLY_SIGNER,
        signer: stranger,
      } as NonNullable<Instruction["accounts"]>[number]);

      const { reason, message } = refusal(checkRelayedTransaction(await wire([extra]), ctx));

      expect(reason).toBe("unexpected_signer");
      expect(message).toMatch(new RegExp(`account \\d \\(${stranger.address}\\) must sign`));
      expect(message).toContain("used by instruction 0");
    });

    it("When agent_transfer names another agent's PDA, Then not_this_agent names the instruction", async () => {
      const bytes = await wire([await agentTransfer({ agent: otherAgent })]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("not_this_agent");
      expect(message).toContain(`instruction 0 (agent-policy agent_transfer) names ${otherAgent} as agent`);
    });

    it("When agent_transfer is signed by another key, Then not_this_agent names the instruction", async () => {
      const bytes = await wire([await agentTransfer({ agentSigner: stranger })]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("not_this_agent");
      expect(message).toContain(
        `instruction 0 (agent-policy agent_transfer) names ${stranger.address} as agent_signer`,
      );
    });

    it("When transfer_record's sender is another key, Then not_this_agent names the instruction", async () => {
      const bytes = await wire([await agentTransfer(), await transferRecord(stranger)]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("not_this_agent");
      expect(message).toContain(
        `instruction 1 (agent-policy transfer_record) names ${stranger.address} as sender`,
      );
    });
  });

  describe("Given a transfer_record that does not ride with the agent's own transfer", () => {
    it("When it is alone, Then record_without_transfer names it", async () => {
      const { reason, message } = refusal(checkRelayedTransaction(await wire([await transferRecord()]), ctx));

      expect(reason).toBe("record_without_transfer");
      expect(message).toContain("instruction 0 (agent-policy transfer_record)");
    });

    it("When the agent_transfer beside it has another transfer id or destination, Then record_without_transfer", async () => {
      const otherId = await wire([
        await agentTransfer({ transferId: new Uint8Array(16).fill(9) }),
        await transferRecord(),
      ]);
      const otherDestination = await wire([
        await agentTransfer({ destination: agentAta }),
        await transferRecord(),
      ]);

      expect(refusal(checkRelayedTransaction(otherId, ctx)).reason).toBe("record_without_transfer");
      expect(refusal(checkRelayedTransaction(otherDestination, ctx)).reason).toBe("record_without_transfer");
    });
  });

  describe("Given signatures that are not as the relay needs them", () => {
    it("When the agent's signature slot is empty, Then missing_signature names the slot", async () => {
      const unsigned = createNoopSigner(agentSigner.address);
      const bytes = await wire([await agentTransfer({ agentSigner: unsigned })]);

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("missing_signature");
      expect(message).toBe(`signature 1 (${agentSigner.address}) is empty`);
    });

    it("When the agent's signature does not verify, Then missing_signature names the slot", async () => {
      const bytes = await wire([await agentTransfer()]);
      const signatureOne = 1 + 64; // shortvec count, then the fee payer's empty slot
      bytes[signatureOne] = (bytes[signatureOne] as number) ^ 1;

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("missing_signature");
      expect(message).toBe(`signature 1 (${agentSigner.address}) does not verify over the message`);
    });

    it("When the fee payer's slot is already filled, Then malformed_transaction names signature 0", async () => {
      const reserve = await generateKeyPairSigner();
      const bytes = await wire([await agentTransfer({ payer: reserve })], { payer: reserve });

      const { reason, message } = refusal(
        checkRelayedTransaction(bytes, { ...ctx, feePayer: reserve.address }),
      );

      expect(reason).toBe("malformed_transaction");
      expect(message).toContain("signature 0 (the fee payer's) is filled");
    });

    it("When another account pays the fees, Then fee_payer_mismatch names account 0", async () => {
      const bytes = await wire([await agentTransfer()], { payer: createNoopSigner(stranger.address) });

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("fee_payer_mismatch");
      expect(message).toContain(`account 0 (the fee payer) is ${stranger.address}`);
    });
  });

  describe("Given bytes the static check cannot see through", () => {
    it("When a v0 transaction loads an account from a lookup table, Then address_lookup_not_allowed names the table", async () => {
      const table = (await generateKeyPairSigner()).address;
      const bytes = await wireV0([ata(), await agentTransfer()], { [table]: [usdg] });

      const { reason, message } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("address_lookup_not_allowed");
      expect(message).toContain(`lookup table ${table}`);
    });

    it("When a v0 transaction lists every account, Then it passes like a legacy one", async () => {
      const bytes = await wireV0([ata(), await agentTransfer()]);

      expect(checkRelayedTransaction(bytes, ctx)).toMatchObject({ ok: true, signatures: 2 });
    });

    it.each([
      ["no bytes", new Uint8Array()],
      ["garbage", new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])],
      ["a random kilobyte", Uint8Array.from({ length: 1024 }, (_, at) => (at * 31 + 7) % 256)],
    ])("When %s is checked, Then malformed_transaction says it is not a wire transaction", (_, bytes) => {
      const { reason } = refusal(checkRelayedTransaction(bytes, ctx));

      expect(reason).toBe("malformed_transaction");
    });

    it("When any bytes at all are checked, Then the check never throws and never passes them", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 1232 }), (bytes) => {
          expect(checkRelayedTransaction(bytes, ctx).ok).toBe(false);
        }),
      );
    });

    it("When any one byte of a passing transaction changes, Then it no longer passes", async () => {
      const bytes = await wire([ata(), await agentTransfer(), await transferRecord()]);
      expect(checkRelayedTransaction(bytes, ctx).ok).toBe(true);

      fc.assert(
        fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
          const changed = new Uint8Array(bytes);
          changed[at] = (changed[at] as number) ^ flip;
          expect(checkRelayedTransaction(changed, ctx).ok).toBe(false);
        }),
        { numRuns: 300 },
      );
    });

    it("When a valid transaction carries trailing bytes, Then malformed_transaction says so", async () => {
      const bytes = await wire([await agentTransfer()]);

      const { reason, message } = refusal(checkRelayedTransaction(new Uint8Array([...bytes, 0]), ctx));

      expect(reason).toBe("malformed_transaction");
      expect(message).toContain("re-encode");
    });
  });
});
