import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { fundedSigner, signedTransaction, transfer, useTestLocalnet } from "./test-support";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";

const net = useTestLocalnet();

/**
 * Polls getSignatureStatuses until `signature` is confirmed (for transactions sent with raw fetch);
 * the deadline is a safety net for a busy machine, not a schedule.
 */
async function waitForConfirmed(signature: Signature): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { value } = await net.rpc.getSignatureStatuses([signature]).send();
    if (value[0] && value[0].confirmationStatus !== "processed") return;
    if (Date.now() > deadline) throw new Error(`${signature} did not confirm within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("localnet JSON-RPC with @solana/kit", () => {
  it("Given a new address, When an airdrop is requested and confirmed, Then its balance holds the lamports", async () => {
    const signer = await fundedSigner(net, 3n);
    const { value } = await net.rpc.getBalance(signer.address, { commitment: "confirmed" }).send();
    expect(value).toBe(3_000_000_000n);
  });

  it("Given a funded payer, When a System transfer is sent and confirmed, Then both balances moved and the fee was paid", async () => {
    const payer = await fundedSigner(net);
    const recipient = (await generateKeyPairSigner()).address;
    const transaction = await signedTransaction(net, payer, [transfer(payer, recipient, 1_000_000n)]);

    await sendAndConfirmTransactionFactory(net)(transaction, { commitment: "confirmed" });

    const [payerBalance, recipientBalance] = await Promise.all([
      net.rpc.getBalance(payer.address, { commitment: "confirmed" }).send(),
      net.rpc.getBalance(recipient, { commitment: "confirmed" }).send(),
    ]);
    expect(recipientBalance.value).toBe(1_000_000n);
    expect(payerBalance.value).toBe(10_000_000_000n - 1_000_000n - 5_000n);
    const { value: statuses } = await net.rpc
      .getSignatureStatuses([getSignatureFromTransaction(transaction)], { searchTransactionHistory: true })
      .send();
    expect(statuses[0]).toMatchObject({ err: null, status: { Ok: null } });
    expect(["confirmed", "finalized"]).toContain(statuses[0]?.confirmationStatus);
  });

  it("Given existing and missing accounts, When read with getAccountInfo and getMultipleAccounts, Then they come back in Solana's shapes", async () => {
    const payer = await fundedSigner(net, 1n);
    const missing = (await generateKeyPairSigner()).address;
    const mint = address(net.cluster.usdgMint);

    const { value: wallet } = await net.rpc.getAccountInfo(payer.address, { encoding: "base64" }).send();
    expect(wallet).toMatchObject({
      lamports: 1_000_000_000n,
      owner: SYSTEM_PROGRAM,
      executable: false,
      space: 0n,
    });
    expect(wallet?.data).toEqual(["", "base64"]);

    const { value: mintAccount } = await net.rpc.getAccountInfo(mint, { encoding: "base64" }).send();
    expect(mintAccount?.owner).toBe(TOKEN_2022_PROGRAM_ADDRESS);
    const mintBytes = Buffer.from(mintAccount?.data[0] ?? "", "base64");
    expect(mintBytes.length).toBe(Number(mintAccount?.space));
    expect(mintBytes[44]).toBe(6); // decimals
    // kit's types omit rentEpoch (deprecated), but the field is on the wire like a validator's.
    expect((mintAccount as { rentEpoch?: bigint } | null)?.rentEpoch).toBe(18_446_744_073_709_551_615n);

    const { value: many } = await net.rpc
      .getMultipleAccounts([payer.address, missing, mint], { encoding: "base64" })
      .send();
    expect(many.map((account) => account?.owner ?? null)).toEqual([
      SYSTEM_PROGRAM,
      null,
      TOKEN_2022_PROGRAM_ADDRESS,
    ]);

    const { value: sliced } = await net.rpc
      .getAccountInfo(mint, { encoding: "base58", dataSlice: { offset: 44, length: 1 } })
      .send();
    expect(sliced?.data).toEqual(["7", "base58"]);
    expect((await net.rpc.getBalance(missing).send()).value).toBe(0n);
  });

  it("Given a landed transfer, When fetched with getTransaction, Then meta has logs, fee, balances and the wire bytes round-trip", async () => {
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const transaction = await signedTransaction(net, payer, [transfer(payer, recipient, 5_000_000n)]);
    await sendAndConfirmTransactionFactory(net)(transaction, { commitment: "confirmed" });
    const signature = getSignatureFromTransaction(transaction);

    const json = await net.rpc
      .getTransaction(signature, {
        commitment: "confirmed",
        encoding: "json",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(json?.version).toBe(0);
    expect(json?.meta).toMatchObject({
      err: null,
      status: { Ok: null },
      fee: 5_000n,
      preBalances: [1_000_000_000n, 0n, 1n],
      postBalances: [1_000_000_000n - 5_005_000n, 5_000_000n, 1n],
      innerInstructions: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: 150n,
    });
    expect(json?.meta?.logMessages).toEqual([
      `Program ${SYSTEM_PROGRAM} invoke [1]`,
      `Program ${SYSTEM_PROGRAM} success`,
    ]);
    expect(json?.transaction.signatures).toEqual([signature]);
    expect(json?.transaction.message.accountKeys).toEqual([payer.address, recipient, SYSTEM_PROGRAM]);
    expect(json?.transaction.message.instructions[0]).toMatchObject({ programIdIndex: 2, accounts: [0, 1] });
    expect(json?.blockTime).toBeTypeOf("bigint");

    const base64 = await net.rpc
      .getTransaction(signature, {
        commitment: "confirmed",
        encoding: "base64",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(base64?.transaction).toEqual([getBase64EncodedWireTransaction(transaction), "base64"]);

    // Without maxSupportedTransactionVersion a v0 transaction is refused, as on a validator.
    const refused = await net.rpc
      .getTransaction(signature, { commitment: "confirmed", encoding: "json" })
      .send()
      .catch((error: unknown) => error);
    expect(String((refused as { context?: { __code?: number } }).context?.__code)).toBe("-32015");
  });

  it("Given a legacy transaction sent base58-encoded, When fetched, Then versions and jsonParsed account keys follow Solana", async () => {
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const { value: blockhash } = await net.rpc.getLatestBlockhash().send();
    const legacy = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: "legacy" }),
        (message) => setTransactionMessageFeePayerSigner(payer, message),
        (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
        (message) => appendTransactionMessageInstructions([transfer(payer, recipient, 1_000_000n)], message),
      ),
    );
    const wire = Buffer.from(getBase64EncodedWireTransaction(legacy), "base64");
    const sent = await net.post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: [getBase58Decoder().decode(wire)],
      }),
    );
    const signature = getSignatureFromTransaction(legacy);
    expect(sent.json).toMatchObject({ result: signature });
    await waitForConfirmed(signature);

    const plain = await net.rpc
      .getTransaction(signature, { commitment: "confirmed", encoding: "json" })
      .send();
    expect(plain).not.toHaveProperty("version");
    expect(plain?.meta).not.toHaveProperty("loadedAddresses");
    const versioned = await net.rpc
      .getTransaction(signature, {
        commitment: "confirmed",
        encoding: "jsonParsed",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(versioned?.version).toBe("legacy");
    expect(versioned?.transaction.message.accountKeys).toEqual([
      { pubkey: payer.address, writable: true, signer: true, source: "transaction" },
      { pubkey: recipient, writable: true, signer: false, source: "transaction" },
      { pubkey: SYSTEM_PROGRAM, writable: false, signer: false, source: "transaction" },
    ]);
    expect(versioned?.transaction.message.instructions[0]).toMatchObject({
      programId: SYSTEM_PROGRAM,
      accounts: [payer.address, recipient],
    });
  });

  it("Given transfers from one payer, When getSignaturesForAddress is asked, Then it lists them newest first with limit and before", async () => {
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const sendAndConfirm = sendAndConfirmTransactionFactory(net);
    const signatures: Signature[] = [];
    for (const amount of [1_000_000n, 2_000_000n]) {
      const transaction = await signedTransaction(net, payer, [transfer(payer, recipient, amount)]);
      await sendAndConfirm(transaction, { commitment: "confirmed" });
      signatures.push(getSignatureFromTransaction(transaction));
    }

    const all = await net.rpc.getSignaturesForAddress(recipient, { commitment: "confirmed" }).send();
    expect(all.map((info) => info.signature)).toEqual([...signatures].reverse());
    expect(all[0]).toMatchObject({ err: null, memo: null });
    const older = await net.rpc
      .getSignaturesForAddress(recipient, { commitment: "confirmed", before: signatures[1], limit: 5 })
      .send();
    expect(older.map((info) => info.signature)).toEqual([signatures[0]]);
    // The airdrop to the payer is in its history too.
    const payerHistory = await net.rpc
      .getSignaturesForAddress(payer.address, { commitment: "confirmed" })
      .send();
    expect(payerHistory).toHaveLength(3);
  });

  it("Given a transfer larger than the balance, When sent with preflight, Then -32002 carries err and logs and nothing lands", async () => {
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const transaction = await signedTransaction(net, payer, [transfer(payer, recipient, 2_000_000_000n)]);

    const error = await net.rpc
      .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64" })
      .send()
      .catch((caught: unknown) => caught);

    expect(
      isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    const raw = await net.post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: [getBase64EncodedWireTransaction(transaction), { encoding: "base64" }],
      }),
    );
    expect(raw.json).toMatchObject({
      error: {
        code: -32002,
        message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
        data: {
          err: { InstructionError: [0, { Custom: 1 }] },
          logs: expect.arrayContaining([`Program ${SYSTEM_PROGRAM} invoke [1]`]),
          accounts: null,
        },
      },
    });
    expect((await net.rpc.getBalance(recipient).send()).value).toBe(0n);
    const { value } = await net.rpc.getSignatureStatuses([getSignatureFromTransaction(transaction)]).send();
    expect(value).toEqual([null]);
  });

  it("Given a signed transfer, When simulated, Then logs and units are reported and nothing lands; sigVerify with replaceRecentBlockhash is refused", async () => {
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const wire = getBase64EncodedWireTransaction(
      await signedTransaction(net, payer, [transfer(payer, recipient, 1_000_000n)]),
    );

    const { value } = await net.rpc.simulateTransaction(wire, { encoding: "base64", sigVerify: true }).send();
    expect(value).toMatchObject({
      err: null,
      unitsConsumed: 150n,
      returnData: null,
      replacementBlockhash: null,
    });
    expect(value.logs).toContain(`Program ${SYSTEM_PROGRAM} success`);
    expect((await net.rpc.getBalance(recipient).send()).value).toBe(0n);

    const replaced = await net.rpc
      .simulateTransaction(wire, { encoding: "base64", replaceRecentBlockhash: true })
      .send();
    expect(replaced.value.replacementBlockhash?.blockhash).toBeTypeOf("string");

    const conflict = await net.post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "simulateTransaction",
        params: [wire, { encoding: "base64", sigVerify: true, replaceRecentBlockhash: true }],
      }),
    );
    expect(conflict.json).toMatchObject({
      error: { code: -32602, message: "sigVerify may not be used with replaceRecentBlockhash" },
    });
  });

  it("Given a landed transaction, When it is simulated again with or without signature checks, Then it is AlreadyProcessed, as on Agave", async () => {
    // An x402 facilitator's /verify simulates with sigVerify false: a landed payment replayed to it
    // must not verify again. Agave checks the status cache by message whatever sigVerify says.
    const payer = await fundedSigner(net, 1n);
    const recipient = (await generateKeyPairSigner()).address;
    const wire = getBase64EncodedWireTransaction(
      await signedTransaction(net, payer, [transfer(payer, recipient, 1_000_000n)]),
    );
    await net.rpc.sendTransaction(wire, { encoding: "base64" }).send();

    for (const sigVerify of [false, true]) {
      const { value } = await net.rpc.simulateTransaction(wire, { encoding: "base64", sigVerify }).send();
      expect(value.err).toBe("AlreadyProcessed");
    }
    // The same message under other signature bytes is the same transaction to the status cache
    const bytes = Buffer.from(wire, "base64");
    bytes[1] = (bytes[1] ?? 0) ^ 1;
    const resigned = bytes.toString("base64") as typeof wire;
    const { value: tampered } = await net.rpc.simulateTransaction(resigned, { encoding: "base64" }).send();
    expect(tampered.err).toBe("AlreadyProcessed");
    // On the latest blockhash it is another message, which simulates
    const replaced = await net.rpc
      .simulateTransaction(wire, { encoding: "base64", replaceRecentBlockhash: true })
      .send();
    expect(replaced.value.err).toBeNull();
    expect((await net.rpc.getBalance(recipient).send()).value).toBe(1_000_000n);
  });

  it("Given the cluster, When node and chain-position methods are called, Then they answer consistently", async () => {
    const rpc = net.rpc;
    expect(await rpc.getHealth().send()).toBe("ok");
    expect((await rpc.getVersion().send())["solana-core"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await rpc.getGenesisHash().send()).toBe(net.cluster.genesisHash);
    const processed = await rpc.getSlot({ commitment: "processed" }).send();
    const finalized = await rpc.getSlot({ commitment: "finalized" }).send();
    expect(processed).toBeGreaterThanOrEqual(finalized);
    const epoch = await rpc.getEpochInfo({ commitment: "processed" }).send();
    expect(epoch.absoluteSlot).toBeGreaterThanOrEqual(processed);
    expect(epoch.slotIndex).toBeLessThan(epoch.slotsInEpoch);
    const height = await rpc.getBlockHeight({ commitment: "processed" }).send();
    expect(height).toBeGreaterThan(0n);
    const { value: latest } = await rpc.getLatestBlockhash({ commitment: "processed" }).send();
    expect(latest.lastValidBlockHeight).toBeGreaterThan(height);
    expect((await rpc.isBlockhashValid(latest.blockhash, { commitment: "processed" }).send()).value).toBe(
      true,
    );
    expect(
      (await rpc.isBlockhashValid("4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi" as never).send()).value,
    ).toBe(false);
    expect(await rpc.getMinimumBalanceForRentExemption(0n).send()).toBe(890_880n);
  });

  it("Given a compiled message, When getFeeForMessage is asked, Then it charges 5000 lamports per signature", async () => {
    const payer = await fundedSigner(net, 1n);
    const transaction = await signedTransaction(net, payer, [transfer(payer, payer.address, 1n)]);
    const message = Buffer.from(transaction.messageBytes).toString("base64");
    const { value } = await net.rpc.getFeeForMessage(message as never).send();
    expect(value).toBe(5_000n);
  });

  it("Given the USDG mint, When getProgramAccounts filters Token-2022 accounts, Then dataSize and memcmp select it", async () => {
    const mint = await net.rpc.getAccountInfo(address(net.cluster.usdgMint), { encoding: "base64" }).send();
    const space = mint.value?.space ?? 0n;
    const mintBytes = Buffer.from(mint.value?.data[0] ?? "", "base64");
    const found = await net.rpc
      .getProgramAccounts(address(TOKEN_2022_PROGRAM_ADDRESS), {
        encoding: "base64",
        filters: [
          { dataSize: space },
          {
            memcmp: {
              offset: 0n,
              bytes: mintBytes.subarray(0, 36).toString("base64") as never,
              encoding: "base64",
            },
          },
        ],
      })
      .send();
    expect(found.map((entry) => entry.pubkey)).toContain(net.cluster.usdgMint);
    const none = await net.rpc
      .getProgramAccounts(address(TOKEN_2022_PROGRAM_ADDRESS), {
        encoding: "base64",
        filters: [{ dataSize: 1n }],
      })
      .send();
    expect(none).toEqual([]);
  });

  it("Given a USDG token account, When getTokenAccountBalance is asked, Then it reports the amount with 6 decimals", async () => {
    const owner = await generateKeyPairSigner();
    const { tokenAccount } = await net.cluster.mintUsdgToOwner(owner.address, 1_234_500n);
    const { value } = await net.rpc
      .getTokenAccountBalance(address(tokenAccount), { commitment: "processed" })
      .send();
    expect(value).toEqual({ amount: "1234500", decimals: 6, uiAmount: 1.2345, uiAmountString: "1.2345" });
  });

  it("Given a legacy-style request without encoding, When getAccountInfo is asked, Then data is a bare base58 string", async () => {
    const payer = await fundedSigner(net, 1n);
    const raw = await net.post(
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "getAccountInfo", params: [payer.address] }),
    );
    expect(raw.json).toMatchObject({
      id: 9,
      result: {
        context: { slot: expect.any(Number), apiVersion: expect.any(String) },
        value: { data: "", lamports: 1_000_000_000, owner: SYSTEM_PROGRAM },
      },
    });
  });
});
