/**
 * The rent attack on the fee reserve, performed as an attacker would: one verified account sends
 * 0.000001 USDG publicly to N fresh addresses it holds the keys of, so the reserve opens each one's
 * Token-2022 account; then each recipient burns the dust and closes its account to the attacker's
 * wallet, which pays every fee of its own. Closing hands the account's rent to whoever closes it,
 * so without a charge the reserve's SOL becomes the attacker's.
 *
 * What must hold: the sender pays the configured account-opening fee in USDG for every account the
 * reserve opens, in the transfer's own transaction, into the service's fee account, and the
 * answer says so; so the attack pays only if SOL is worth more than fee / rent USDG (about 482
 * USDG at the default 1 USDG), far above any price SOL has had. The figures are printed for the
 * record (before and after the fix).
 */

import { findTokenAccount } from "@cpay/sdk/confidential";
import { type Address, address, generateKeyPairSigner } from "@solana/kit";
import { getBurnCheckedInstruction, getCloseAccountInstruction } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { lamportsOf } from "../support/chain-reads";
import { sendAs } from "../support/send-as";
import { publicUsdgOn } from "../support/usdg-balances";

/** Fresh recipients the attacker holds the keys of. */
const RECIPIENTS = 6;
/** The documented default, set here so the figures below do not hang on the default. */
const FEE_USDG = "1";
const FEE_UNITS = usdg(1);
const DUST = 1n;
const ATTACKER_SOL = 100_000_000n;
const USDG_DECIMALS = 6;
/** SOL has never been worth this many USDG; below it, the attack loses money. */
const ABOVE_ANY_SOL_PRICE = 400;

describe("the rent attack on the fee reserve", () => {
  const given = apiSuite({
    world: { env: { ACCOUNT_OPENING_FEE_USDG: FEE_USDG } },
    accounts: { sender: "mallory" },
    funds: { sender: { public: usdg(20) } },
    setUp: async ({ world }) => {
      const attacker = await generateKeyPairSigner();
      await world.chain.requestAirdrop(attacker.address, ATTACKER_SOL);
      for (let read = 0; (await lamportsOf(world.chain, attacker.address)) < ATTACKER_SOL; read++) {
        if (read > 1_000) throw new Error("the attacker's airdrop never landed");
        await world.slots(1);
      }
      return { attacker };
    },
  });

  const usdgOf = (owner: string) => publicUsdgOn(given.world.chain, owner);

  it("Given public dust sent to N fresh addresses whose accounts are then burned and closed, When the attacker counts its gain, Then the sender paid the account-opening fee for each into the service's fee account and the attack pays only above any price SOL has had", async () => {
    const reserve = given.world.service.context.feePayer.address;
    const mint = address(given.world.chain.usdgMint);
    const recipients = await Promise.all(Array.from({ length: RECIPIENTS }, () => generateKeyPairSigner()));
    const reserveBefore = await lamportsOf(given.world.chain, reserve);
    const senderUsdgBefore = await usdgOf(given.sender.account.publicKey);
    const feeAccountUsdgBefore = await usdgOf(reserve);
    const attackerBefore = await lamportsOf(given.world.chain, given.attacker.address);

    // When: the dust goes out, one public transfer per fresh address
    const answers = [];
    for (const recipient of recipients) {
      answers.push(
        await given.sender.client.call("createTransfer", {
          body: { to: recipient.address, amount: "0.000001", confidential: false },
        }),
      );
    }
    const reservePaid = reserveBefore - (await lamportsOf(given.world.chain, reserve));
    const accounts: Address[] = await Promise.all(
      recipients.map((recipient) => findTokenAccount(recipient.address, mint)),
    );
    let accountRent = 0n;
    for (const account of accounts) accountRent += await lamportsOf(given.world.chain, account);

    // ... and each recipient burns the dust and closes its account to the attacker's wallet
    for (const [index, recipient] of recipients.entries()) {
      const account = accounts[index] as Address;
      await sendAs(given.world.chain, given.attacker, [
        getBurnCheckedInstruction({
          account,
          mint,
          authority: recipient,
          amount: DUST,
          decimals: USDG_DECIMALS,
        }),
        getCloseAccountInstruction({ account, destination: given.attacker.address, owner: recipient }),
      ]);
    }
    const attackerGain = (await lamportsOf(given.world.chain, given.attacker.address)) - attackerBefore;
    const senderPaidUsdg = senderUsdgBefore - (await usdgOf(given.sender.account.publicKey));
    const feesCollected = (await usdgOf(reserve)) - feeAccountUsdgBefore;
    const usdgPaidForOpenings = senderPaidUsdg - DUST * BigInt(RECIPIENTS);
    // USDG per SOL at which the attacker's USDG buys exactly the SOL it took home.
    const breakEven =
      attackerGain > 0n
        ? Number(usdgPaidForOpenings) / 10 ** USDG_DECIMALS / (Number(attackerGain) / 1e9)
        : Number.POSITIVE_INFINITY;
    console.log(
      [
        `rent attack, ${RECIPIENTS} public transfers of 0.000001 USDG to fresh addresses:`,
        `  the reserve paid ${sol(reservePaid)} SOL (${sol(accountRent)} of it the recipients' token accounts, the rest receipts and fees)`,
        `  the recipients' owner got back ${sol(attackerGain)} SOL net of its own fees`,
        `  the sender paid ${usdgText(senderPaidUsdg)} USDG (${usdgText(usdgPaidForOpenings)} beyond the dust); the service's fee account received ${usdgText(feesCollected)} USDG`,
        `  stated fees: ${answers.map((answer) => JSON.stringify((answer as { fees?: unknown }).fees)).join(", ")}`,
        `  break-even SOL price: ${Number.isFinite(breakEven) ? breakEven.toFixed(2) : "none"} USDG per SOL (the attack pays only above it)`,
      ].join("\n"),
    );

    // Then every answer states the fee, and the fee is what moved, into the service's fee account
    for (const answer of answers) expect(answer.fees).toEqual({ account_opening: FEE_USDG });
    expect(feesCollected).toBe(FEE_UNITS * BigInt(RECIPIENTS));
    expect(usdgPaidForOpenings).toBe(FEE_UNITS * BigInt(RECIPIENTS));
    // ... the attacker took home at most the accounts' rent, which the fee outweighs at any price SOL has had
    expect(attackerGain).toBeLessThanOrEqual(accountRent);
    expect(breakEven).toBeGreaterThan(ABOVE_ANY_SOL_PRICE);
  });
});

function sol(lamports: bigint): string {
  return (Number(lamports) / 1e9).toFixed(6);
}

function usdgText(units: bigint): string {
  return (Number(units) / 10 ** USDG_DECIMALS).toFixed(6);
}
