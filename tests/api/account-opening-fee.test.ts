/**
 * The account-opening fee on every path where the fee reserve would open a recipient's token
 * account that someone outside the service can close (and take the rent of):
 * - an account's own public transfer: the sender pays the fee from the same public balance, in the
 *   transfer's transaction, and the answer states it (also when rebuilt after the request died);
 *   none to the service's own accounts or to an address whose account exists; a balance that
 *   covers the amount but not the fee is `402`;
 * - a custodial agent's public transfer: the fee comes from its OWNER's public balance (the agent's
 *   tokens are its PDA's, which only the program moves), signed by the service for the owner in the
 *   same transaction; an owner who cannot cover it gets the agent `402`, nothing changed;
 * - the relay (self-custody agents): a reserve-paid opening of an external address's account is
 *   refused (`422 relay_transaction_refused`, rule `external_account_opening`) with nothing
 *   signed; the agent may pay that rent itself, and the SDK leaves the opening out when the
 *   account exists.
 */

import { fundTestAccount } from "@cpay/api";
import { runIdempotently } from "@cpay/api/idempotency";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { type Address, address, generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTokenDecoder,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";
import { lamportsOf, signerState } from "../support/chain-reads";
import { publicUsdgOn } from "../support/usdg-balances";
import { createTestAgent, type WorldAgent } from "./support/agents";
import {
  agentSigned,
  createSelfCustodyAgent,
  publicTransferInstructions,
  type SelfCustodyAgent,
  selfCustodyClient,
} from "./support/self-custody";

const FEE = usdg(1);

describe("the account-opening fee", () => {
  const given = apiSuite({ accounts: ["alice", "bob", "olga"], funds: { alice: { public: usdg(20) } } });

  const usdgOf = (owner: string) => publicUsdgOn(given.world.chain, owner);
  const feeAccountBalance = () => usdgOf(given.world.service.context.feePayer.address);
  const reserveState = () => signerState(given.world.chain, given.world.service.context.feePayer.address);
  const transferCount = async () => {
    const { db } = given.world.service.context;
    return (await db.read((q) => q.select().from(db.tables.transfers))).length;
  };
  /** The transfers written and what the reserve signed: a refusal changes neither. */
  const writtenAndSigned = async () => ({ rows: await transferCount(), reserve: await reserveState() });
  /** A refusal opened no token account for `owner`. */
  const expectNoTokenAccount = async (owner: Address) =>
    expect(
      await given.world.chain.getAccount(await findTokenAccount(owner, given.world.chain.usdgMint)),
    ).toBeNull();

  describe("an account's own public transfer", () => {
    it("Given a fresh address, When alice pays it publicly, Then she pays the amount plus the fee, the fee lands in the service's fee account and the answer states it", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const [aliceBefore, feesBefore] = [
        await usdgOf(given.alice.account.publicKey),
        await feeAccountBalance(),
      ];

      const created = await given.alice.client.call("createTransfer", {
        body: { to: stranger, amount: "2", confidential: false },
      });

      expect(created.fees).toEqual({ account_opening: "1" });
      expect(await usdgOf(stranger)).toBe(usdg(2));
      expect(await usdgOf(given.alice.account.publicKey)).toBe(aliceBefore - usdg(2) - FEE);
      expect((await feeAccountBalance()) - feesBefore).toBe(FEE);

      // When she pays the same address again: its account exists, nothing is opened, no fee
      const again = await given.alice.client.call("createTransfer", {
        body: { to: stranger, amount: "1", confidential: false },
      });
      expect(again.fees).toEqual({ account_opening: "0" });
      expect(await usdgOf(given.alice.account.publicKey)).toBe(aliceBefore - usdg(3) - FEE);
      expect((await feeAccountBalance()) - feesBefore).toBe(FEE);
    });

    it("Given the request that charged a fee died before answering, When its Idempotency-Key is retried, Then the answer rebuilt from the chain states the fee its transaction charged", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const charged = await given.alice.client.call("createTransfer", {
        body: { to: stranger, amount: "1", confidential: false },
      });
      const free = await given.alice.client.call("createTransfer", {
        body: { to: "@bob", amount: "1", confidential: false },
      });

      const rebuilt = [];
      for (const transfer of [charged, free]) {
        const key = `died-${transfer.transfer_id}`;
        await abandonedClaim(key, transfer.transfer_id);
        const answer = await runIdempotently(
          given.world.service.context,
          { accountId: given.alice.account.id, key, fingerprint: key },
          () => {
            throw new Error("a recovered transfer is never sent again");
          },
        );
        rebuilt.push(answer.body);
      }

      // (its status may have moved on since: the indexer confirms it meanwhile)
      expect(rebuilt).toMatchObject([
        { transfer_id: charged.transfer_id, fees: { account_opening: "1" } },
        { transfer_id: free.transfer_id, fees: { account_opening: "0" } },
      ]);
      expect(charged.fees).toEqual({ account_opening: "1" });
      expect(free.fees).toEqual({ account_opening: "0" });
    });

    it("Given the service's own account, by handle or by address, When alice pays it publicly, Then no fee is charged", async () => {
      const aliceBefore = await usdgOf(given.alice.account.publicKey);
      const byHandle = await given.alice.client.call("createTransfer", {
        body: { to: "@bob", amount: "1", confidential: false },
      });
      const byAddress = await given.alice.client.call("createTransfer", {
        body: { to: given.bob.account.publicKey, amount: "1", confidential: false },
      });
      expect([byHandle.fees, byAddress.fees]).toEqual([{ account_opening: "0" }, { account_opening: "0" }]);
      expect(await usdgOf(given.alice.account.publicKey)).toBe(aliceBefore - usdg(2));
    });

    it("Given a balance that covers the amount but not the fee, When she pays a fresh address, Then 402 names the fee and nothing is written, signed or opened", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const balance = await usdgOf(given.alice.account.publicKey);
      const before = await writtenAndSigned();

      const refused = await refusalOf(
        given.alice.client.call("createTransfer", {
          body: { to: stranger, amount: (Number(balance) / 1e6).toFixed(6), confidential: false },
        }),
      );

      expect(refused).toMatchObject({ status: 402, code: "insufficient_balance", param: "amount" });
      expect(refused.message).toContain("1 USDG account-opening fee");
      expect(await writtenAndSigned()).toEqual(before);
      await expectNoTokenAccount(stranger);
      expect(await usdgOf(given.alice.account.publicKey)).toBe(balance);
    });
  });

  describe("a custodial agent's public transfer", () => {
    let bot: WorldAgent;
    let broke: WorldAgent;

    beforeAll(async () => {
      bot = await createTestAgent(given.world, given.alice, "bot");
      broke = await createTestAgent(given.world, given.olga, "broke");
      for (const agent of [bot, broke]) {
        await fundTestAccount(given.world.service.context, given.world.faucet, agent.row, {
          confidential: 0n,
          public: usdg(10),
        });
      }
    });

    it("Given a fresh address, When the agent pays it, Then the agent pays the amount and its owner the fee, in one transaction, and the answer states it", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const agentClient = given.world.clientFor(bot.key.value);
      const [agentBefore, ownerBefore, feesBefore] = [
        await usdgOf(bot.row.publicKey),
        await usdgOf(given.alice.account.publicKey),
        await feeAccountBalance(),
      ];

      const created = await agentClient.call("createTransfer", {
        body: { to: stranger, amount: "3", confidential: false },
      });

      expect(created.fees).toEqual({ account_opening: "1" });
      expect(await usdgOf(stranger)).toBe(usdg(3));
      expect(await usdgOf(bot.row.publicKey)).toBe(agentBefore - usdg(3));
      expect(await usdgOf(given.alice.account.publicKey)).toBe(ownerBefore - FEE);
      expect((await feeAccountBalance()) - feesBefore).toBe(FEE);
      const row = await given.world.transferRow(created.transfer_id);
      expect(JSON.parse(row.signatures)).toEqual([created.tx_signature]);
    });

    it("Given an owner whose public balance cannot cover the fee, When its agent pays a fresh address, Then 402 names the owner's fee and nothing is written, signed or opened", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const before = await writtenAndSigned();

      const refused = await refusalOf(
        given.world.clientFor(broke.key.value).call("createTransfer", {
          body: { to: stranger, amount: "1", confidential: false },
        }),
      );

      expect(refused).toMatchObject({ status: 402, code: "insufficient_balance" });
      expect(refused.message).toContain("owner");
      expect(refused.message).toContain("1 USDG account-opening fee");
      expect(await writtenAndSigned()).toEqual(before);
      await expectNoTokenAccount(stranger);
      expect(await usdgOf(broke.row.publicKey)).toBe(usdg(10));
    });
  });

  describe("the relay (self-custody agents)", () => {
    let solo: SelfCustodyAgent;

    beforeAll(async () => {
      solo = await createSelfCustodyAgent(given.world, given.alice, "solo");
      await given.world.faucet.mintUsdgToOwner(solo.pda, usdg(10));
    });

    const relay = (transactions: string[]) =>
      given.world.clientFor(solo.key.value).call("relayTransactions", { body: { transactions } });
    const instructionsTo = (recipient: Address) =>
      publicTransferInstructions(given.world, {
        agent: solo.pda,
        signer: solo.signer,
        recipient,
        amount: usdg(1),
      });

    it("Given a transaction in which the reserve opens an external address's account, When relayed, Then it is refused naming the rule and how to proceed, with nothing signed or written", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const before = await writtenAndSigned();

      const refused = await refusalOf(
        relay([await agentSigned(given.world, await instructionsTo(stranger))]),
      );

      expect(refused).toMatchObject({
        status: 422,
        code: "relay_transaction_refused",
        param: "transactions[0]",
      });
      expect(refused.message).toContain("external_account_opening");
      expect(refused.message).toContain("agent signer");
      expect(await writtenAndSigned()).toEqual(before);
    });

    it("Given the agent signer paying the external account's rent itself, When relayed, Then it lands, and the SDK's next transfer there leaves the opening out and lands", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      await fundSol(solo.signer, 10_000_000n);
      const [transferRent, ...rest] = await instructionsTo(stranger);
      expect(transferRent?.programAddress).toBe("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
      const selfPaid = getCreateAssociatedTokenIdempotentInstruction({
        payer: solo.signer,
        ata: await findTokenAccount(stranger, given.world.chain.usdgMint),
        owner: stranger,
        mint: address(given.world.chain.usdgMint),
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      });

      const answer = await relay([await agentSigned(given.world, [selfPaid, ...rest])]);
      expect(answer.transfer?.fees).toEqual({ account_opening: "0" });
      expect(await usdgOf(stranger)).toBe(usdg(1));

      const client = selfCustodyClient(given.world, solo);
      await client.transfer({ recipient: stranger, amount: usdg(1), confidential: false });
      expect(await usdgOf(stranger)).toBe(usdg(2));
    });

    it("Given the SDK's agent client and an external address with no account, When it transfers, Then the relay's refusal says how to proceed", async () => {
      const stranger = (await generateKeyPairSigner()).address;
      const client = selfCustodyClient(given.world, solo);
      const refused = await refusalOf(
        client.transfer({ recipient: stranger, amount: 1n, confidential: false }),
      );
      expect(refused).toMatchObject({ status: 422, code: "relay_transaction_refused" });
      expect(refused.message).toContain("external_account_opening");
    });
  });

  /** An Idempotency-Key claim bound to `transferId` whose holder died (its lease ran out). */
  async function abandonedClaim(key: string, transferId: string): Promise<void> {
    const { db } = given.world.service.context;
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.transaction(async (tx) => {
      await tx.insert(db.tables.idempotencyKeys).values({
        accountId: given.alice.account.id,
        key,
        requestHash: key,
        state: "in_progress",
        resourceId: transferId,
        createdAt: past,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        leaseExpiresAt: past,
      });
    });
  }

  /** Lamports for a signer that pays rent itself, from the test cluster's faucet. */
  async function fundSol(signer: KeyPairSigner, lamports: bigint): Promise<void> {
    const target = (await lamportsOf(given.world.chain, signer.address)) + lamports;
    await given.world.chain.requestAirdrop(signer.address, lamports);
    for (let read = 0; (await lamportsOf(given.world.chain, signer.address)) < target; read++) {
      if (read > 1_000) throw new Error("the airdrop never landed");
      await given.world.slots(1);
    }
  }

  it("Given the fees collected, Then they sit in a token account of the reserve's own (only the service can move them)", async () => {
    const account = await given.world.chain.getAccount(
      await findTokenAccount(given.world.service.context.feePayer.address, given.world.chain.usdgMint),
    );
    expect(account).not.toBeNull();
    const decoded = getTokenDecoder().decode(account?.data ?? new Uint8Array());
    expect(decoded.owner).toBe(given.world.service.context.feePayer.address);
    expect(decoded.amount).toBeGreaterThanOrEqual(2n * FEE);
  });
});
