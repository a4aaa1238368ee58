/**
 * The encrypted memo carried on-chain by the agent-policy program's `transfer_record`, in the same
 * transaction as the funds (real program .so, real proofs, embedded cluster): exactly one
 * ServiceTransferRecorded event, readable by the sender and the recipient and by no one else; the
 * plaintext nowhere in the transactions or logs; a replayed transfer id refused by the program
 * (receipt) and moving nothing; an over-long memo refused before anything is sent; the public path
 * recording confidential = false.
 */

import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { findReceiptPda } from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import {
  type ConfidentialError,
  decryptMemo,
  findTransferRecords,
  isConfidentialError,
  MAX_MEMO_PLAINTEXT_BYTES,
  readTransferMemo,
  type TransferRecordEvent,
  transferConfidential,
  transferMemoAssociatedData,
  transferPublic,
} from "@cpay/sdk/confidential";
import { address, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  available,
  chainOf,
  confidentialParty,
  confidentialStateOf,
  failingNthSubmission,
  fundConfidential,
  type Party,
  pendingCredits,
} from "./support";

/** Distinctive, multi-byte, and long enough that any leak of it is unmistakable. */
const MEMO = "invoice 4471 · canary-memo-7f3a9c · paid in full ✓";
const AMOUNT = 1_234_567n;

let cluster: EmbeddedCluster;
/** The SDK flows' way to the cluster (built once); assertions read `cluster` itself. */
let chain: ChainPort;
let alice: Party;
let bob: Party;
let carol: Party;
let recorded: { readonly signatures: readonly string[]; readonly event: TransferRecordEvent };

function transferId(n: number): Uint8Array {
  const id = new Uint8Array(16);
  new DataView(id.buffer).setUint32(12, n);
  id[0] = 0xc0;
  return id;
}

const transferWithRecord = (
  record: { transferId: Uint8Array; memo?: string | Uint8Array },
  amount = AMOUNT,
  on: ChainPort = chain,
) =>
  transferConfidential(on, {
    owner: alice.wallet,
    keys: alice.keys,
    mint: cluster.usdgMint,
    recipient: bob.wallet.address,
    amount,
    record,
  });

function transactionOf(signature: string | undefined) {
  const record = signature === undefined ? null : cluster.getTransaction(signature);
  if (record === null) throw new Error(`missing transaction ${signature}`);
  return record;
}

/** The program id of each top-level instruction of a landed transaction. */
function instructionPrograms(signature: string): string[] {
  const transaction = getTransactionDecoder().decode(transactionOf(signature).wire);
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (!("instructions" in message)) throw new Error(`unexpected message version ${message.version}`);
  const { instructions, staticAccounts } = message;
  return instructions.map((instruction) => staticAccounts[instruction.programAddressIndex] ?? "");
}

/** What the cluster and the parties' balances look like, to prove an attempt moved nothing. */
function balances() {
  return {
    alice: available(cluster, alice),
    bobPending: pendingCredits(cluster, bob),
    alicePublic: confidentialStateOf(cluster, alice.tokenAccount)?.publicAmount,
    bobPublic: confidentialStateOf(cluster, bob.tokenAccount)?.publicAmount,
  };
}

async function rejection(attempt: Promise<unknown>): Promise<ConfidentialError> {
  return attempt.then(
    () => {
      throw new Error("expected the attempt to be refused");
    },
    (error: unknown) => error as ConfidentialError,
  );
}

beforeAll(async () => {
  cluster = await createEmbeddedCluster({ slotMs: 0 });
  chain = chainOf(cluster);
  alice = await confidentialParty(cluster);
  bob = await confidentialParty(cluster);
  carol = await confidentialParty(cluster);
  await fundConfidential(cluster, alice, 100_000_000n);
  const { signatures } = await transferWithRecord({ transferId: transferId(1), memo: MEMO });
  const [event] = findTransferRecords(transactionOf(signatures.at(-1)), {
    programAddress: cluster.programId,
  });
  if (event === undefined) throw new Error("no record");
  recorded = { signatures, event };
});
afterAll(() => cluster.stop());

describe("a confidential transfer carries its encrypted memo", () => {
  it("Given Alice transfers to Bob with a memo, then the final transaction holds the Token-2022 transfer and exactly one ServiceTransferRecorded", () => {
    const final = recorded.signatures.at(-1) ?? "";
    expect(recorded.signatures).toHaveLength(4);
    // Transfer, then the record, then the three context closes: one atomic transaction.
    expect(instructionPrograms(final)).toEqual([
      TOKEN_2022_PROGRAM_ADDRESS,
      cluster.programId,
      ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
      ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
      ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
    ]);
    const perTransaction = recorded.signatures.map(
      (signature) =>
        findTransferRecords(transactionOf(signature), { programAddress: cluster.programId }).length,
    );
    expect(perTransaction).toEqual([0, 0, 0, 1]);
    expect(transactionOf(final).wire.length).toBeLessThanOrEqual(1232);
    expect(recorded.event).toMatchObject({
      transferId: transferId(1),
      sender: alice.wallet.address,
      source: alice.tokenAccount,
      destination: bob.tokenAccount,
      mint: cluster.usdgMint,
      confidential: true,
      instructionIndex: 1,
    });
    // The funds moved with it, and the receipt exists.
    expect(available(cluster, alice)).toBe(100_000_000n - AMOUNT);
    expect(pendingCredits(cluster, bob)).toBe(1n);
  });

  it("Given the landed record, then the sender and the recipient both decrypt the memo to the original text", async () => {
    const transaction = transactionOf(recorded.signatures.at(-1));
    // The sender, with the parties read from the record's token accounts.
    expect((await readTransferMemo({ transaction, keys: alice.keys, chain })).memoText).toBe(MEMO);
    // The recipient, from the bare logs, with the parties given explicitly.
    const parties = { senderPubkey: alice.keys.elgamalPubkey, recipientPubkey: bob.keys.elgamalPubkey };
    const forBob = readTransferMemo({
      transaction: transaction.logs,
      keys: bob.keys,
      parties,
      transferId: transferId(1),
      programAddress: cluster.programId,
    });
    expect(forBob.memoText).toBe(MEMO);
    expect(forBob.memo).toEqual(new TextEncoder().encode(MEMO));
  });

  it("Given a third account, then it cannot decrypt the memo, even claiming to be a party", async () => {
    const transaction = transactionOf(recorded.signatures.at(-1));
    const refused = (attempt: () => unknown) =>
      expect(attempt).toThrow(expect.objectContaining({ code: "memo_undecryptable" }));
    await expect(readTransferMemo({ transaction, keys: carol.keys, chain })).rejects.toThrow(
      expect.objectContaining({ code: "memo_undecryptable" }),
    );
    refused(() =>
      readTransferMemo({
        transaction,
        keys: carol.keys,
        parties: { senderPubkey: alice.keys.elgamalPubkey, recipientPubkey: carol.keys.elgamalPubkey },
      }),
    );
    refused(() =>
      readTransferMemo({
        transaction,
        keys: carol.keys,
        parties: { senderPubkey: carol.keys.elgamalPubkey, recipientPubkey: bob.keys.elgamalPubkey },
      }),
    );
  });

  it("Given the envelope moved into another record, then not even the parties decrypt it", () => {
    const elsewhere = { ...recorded.event, transferId: transferId(99) };
    expect(() =>
      decryptMemo({
        envelope: recorded.event.envelope,
        keys: bob.keys,
        parties: { senderPubkey: alice.keys.elgamalPubkey, recipientPubkey: bob.keys.elgamalPubkey },
        associatedData: transferMemoAssociatedData(elsewhere),
      }),
    ).toThrow(expect.objectContaining({ code: "memo_undecryptable" }));
  });
});

describe("plaintext canary", () => {
  /** Every transaction touching the parties or the receipt: wire bytes, return data, logs and logged data. */
  async function everything(): Promise<{ blobs: Buffer[]; texts: string[] }> {
    const [receipt] = await findReceiptPda(
      { sender: alice.wallet.address, transferId: transferId(1) },
      { programAddress: address(cluster.programId) },
    );
    const watched = [alice.wallet.address, bob.wallet.address, alice.tokenAccount, bob.tokenAccount, receipt];
    const signatures = new Set(
      watched.flatMap((key) => cluster.getSignaturesForAddress(key).map((entry) => entry.signature)),
    );
    const blobs: Buffer[] = [];
    const texts: string[] = [];
    for (const signature of signatures) {
      const record = transactionOf(signature);
      blobs.push(Buffer.from(record.wire));
      if (record.returnData !== null) blobs.push(Buffer.from(record.returnData.data));
      for (const line of record.logs) {
        texts.push(line);
        if (line.startsWith("Program data: ")) {
          for (const part of line.slice("Program data: ".length).split(" "))
            blobs.push(Buffer.from(part, "base64"));
        }
      }
    }
    for (const key of watched) blobs.push(Buffer.from(cluster.getAccount(key)?.data ?? []));
    return { blobs, texts };
  }

  it("Given the record's envelope (positive control), then the search finds it in the wire bytes and the logged event", async () => {
    const { blobs } = await everything();
    const envelope = Buffer.from(recorded.event.envelope);
    // The memo padded to its bucket (64 bytes for these 55) plus the envelope's 33.
    expect(envelope.length).toBe(64 + 33);
    expect(Buffer.from(transactionOf(recorded.signatures.at(-1)).wire).includes(envelope)).toBe(true);
    expect(blobs.filter((blob) => blob.includes(envelope)).length).toBeGreaterThanOrEqual(2);
  });

  it("Given everything the flow produced, then the memo plaintext appears in no encoding", async () => {
    const { blobs, texts } = await everything();
    const utf8 = Buffer.from(MEMO, "utf8");
    const needles = {
      utf8,
      utf16le: Buffer.from(MEMO, "utf16le"),
      distinctive: Buffer.from("canary-memo-7f3a9c"),
    };
    for (const [name, needle] of Object.entries(needles)) {
      expect(
        blobs.filter((blob) => blob.includes(needle)),
        name,
      ).toEqual([]);
    }
    for (const text of [MEMO, "canary-memo-7f3a9c", utf8.toString("base64"), utf8.toString("hex")]) {
      expect(texts.filter((line) => line.includes(text))).toEqual([]);
    }
  });
});

describe("a transfer id is recorded, and paid, once", () => {
  it("Given the id was recorded, when the transfer is retried with it, then it is refused before anything is sent", async () => {
    const before = balances();
    const sent = cluster.getSignaturesForAddress(alice.wallet.address).length;
    const error = await rejection(transferWithRecord({ transferId: transferId(1), memo: MEMO }));
    expect(isConfidentialError(error, "transfer_already_recorded")).toBe(true);
    expect(cluster.getSignaturesForAddress(alice.wallet.address)).toHaveLength(sent);
    expect(balances()).toEqual(before);
  });

  it("Given the receipt is unseen by the SDK (a racing process), when the replay reaches the chain, then the program refuses it and nothing moves", async () => {
    const [receipt] = await findReceiptPda(
      { sender: alice.wallet.address, transferId: transferId(1) },
      { programAddress: address(cluster.programId) },
    );
    const receiptBefore = cluster.getAccount(receipt);
    // The SDK's own receipt check does not see it (as if it landed after the check).
    const blind: ChainPort = {
      ...chain,
      getAccount: async (key) => (key === receipt ? null : chain.getAccount(key)),
    };
    const before = balances();

    const error = await rejection(
      transferWithRecord({ transferId: transferId(1), memo: "again" }, AMOUNT, blind),
    );

    // The final transaction (Transfer + record) was refused as a whole: AccountAlreadyInitialized.
    expect(isConfidentialError(error, "transfer_already_recorded", "transfer")).toBe(true);
    expect(error.message).toContain("6007");
    expect(error.contexts.map((context) => context.outcome)).toEqual(["closed", "closed", "closed"]);
    expect(balances()).toEqual(before);
    expect(cluster.getAccount(receipt)).toEqual(receiptBefore);
    const records = cluster
      .getSignaturesForAddress(alice.wallet.address)
      .flatMap((entry) =>
        findTransferRecords(transactionOf(entry.signature), { programAddress: cluster.programId }),
      );
    expect(records.filter((record) => Buffer.from(record.transferId).equals(transferId(1)))).toHaveLength(1);
  });

  it("Given the final transaction fails, then no record lands and the same id succeeds on retry", async () => {
    const id = transferId(2);
    const [receipt] = await findReceiptPda(
      { sender: alice.wallet.address, transferId: id },
      { programAddress: address(cluster.programId) },
    );
    const before = balances();
    // Submissions 1-2 are the proof transactions, 3 the range verify, 4 the final one.
    const error = await rejection(
      transferWithRecord({ transferId: id, memo: "second" }, 1_000n, failingNthSubmission(chain, 4)),
    );
    expect(isConfidentialError(error, "step_failed", "transfer")).toBe(true);
    expect(cluster.getAccount(receipt)).toBeNull();
    expect(balances()).toEqual(before);

    const { signatures } = await transferWithRecord({ transferId: id, memo: "second" }, 1_000n);
    const memo = await readTransferMemo({
      transaction: transactionOf(signatures.at(-1)),
      keys: bob.keys,
      chain,
    });
    expect(memo.memoText).toBe("second");
    expect(cluster.getAccount(receipt)?.owner).toBe(cluster.programId);
  });
});

describe("memo length", () => {
  it(`Given a memo of ${MAX_MEMO_PLAINTEXT_BYTES} bytes (the maximum), then it lands and the final transaction fits the packet limit`, async () => {
    const longest = `${"m".repeat(MAX_MEMO_PLAINTEXT_BYTES - 3)}✓`; // a 3-byte character at the end
    const { signatures } = await transferWithRecord({ transferId: transferId(3), memo: longest }, 1n);
    const final = transactionOf(signatures.at(-1));
    const [event] = findTransferRecords(final, { programAddress: cluster.programId });
    expect(event?.envelope.length).toBe(256); // the program's limit exactly
    // last measured: 985 of 1232 bytes (593 without a record), so the program's 256-byte memo
    // limit, not the packet, bounds the memo.
    expect(final.wire.length).toBeLessThanOrEqual(1232);
    expect((await readTransferMemo({ transaction: final, keys: alice.keys, chain })).memoText).toBe(longest);
  });

  it("Given a memo one byte over the maximum (in UTF-8 bytes, not characters), then it is refused with memo_too_long before anything is sent", async () => {
    const before = balances();
    const sent = cluster.getSignaturesForAddress(alice.wallet.address).length;
    for (const memo of [
      "m".repeat(MAX_MEMO_PLAINTEXT_BYTES + 1),
      "é".repeat(112), // 112 characters, 224 bytes
      new Uint8Array(MAX_MEMO_PLAINTEXT_BYTES + 1),
    ]) {
      const error = await rejection(transferWithRecord({ transferId: transferId(4), memo }));
      expect(isConfidentialError(error, "memo_too_long")).toBe(true);
    }
    expect(cluster.getSignaturesForAddress(alice.wallet.address)).toHaveLength(sent);
    expect(balances()).toEqual(before);
  });
});

describe("the public path carries a record too", () => {
  it("Given a public transfer with a memo, then it records confidential = false in the same transaction and both parties decrypt", async () => {
    await cluster.mintUsdgToOwner(alice.wallet.address, 5_000_000n);
    const bobPublic = confidentialStateOf(cluster, bob.tokenAccount)?.publicAmount ?? 0n;
    const { signature } = await transferPublic(chain, {
      owner: alice.wallet,
      keys: alice.keys,
      mint: cluster.usdgMint,
      recipient: bob.wallet.address,
      amount: 2_000_000n,
      record: { transferId: transferId(5), memo: MEMO },
    });
    const transaction = transactionOf(signature);
    expect(instructionPrograms(signature).slice(1)).toEqual([TOKEN_2022_PROGRAM_ADDRESS, cluster.programId]);
    const records = findTransferRecords(transaction, { programAddress: cluster.programId });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      transferId: transferId(5),
      sender: alice.wallet.address,
      source: alice.tokenAccount,
      destination: bob.tokenAccount,
      confidential: false,
      instructionIndex: 2,
    });
    expect(confidentialStateOf(cluster, bob.tokenAccount)?.publicAmount).toBe(bobPublic + 2_000_000n);
    expect((await readTransferMemo({ transaction, keys: alice.keys, chain })).memoText).toBe(MEMO);
    expect((await readTransferMemo({ transaction, keys: bob.keys, chain })).memoText).toBe(MEMO);
    await expect(readTransferMemo({ transaction, keys: carol.keys, chain })).rejects.toThrow(
      expect.objectContaining({ code: "memo_undecryptable" }),
    );
    expect(Buffer.from(transaction.wire).includes(Buffer.from("canary-memo-7f3a9c"))).toBe(false);
  });

  it("Given the public transfer's id again, then it is refused and no funds move", async () => {
    const bobPublic = confidentialStateOf(cluster, bob.tokenAccount)?.publicAmount;
    const error = await rejection(
      transferPublic(chain, {
        owner: alice.wallet,
        keys: alice.keys,
        mint: cluster.usdgMint,
        recipient: bob.wallet.address,
        amount: 1_000_000n,
        record: { transferId: transferId(5), memo: MEMO },
      }),
    );
    expect(isConfidentialError(error, "transfer_already_recorded")).toBe(true);
    expect(confidentialStateOf(cluster, bob.tokenAccount)?.publicAmount).toBe(bobPublic);
  });
});
