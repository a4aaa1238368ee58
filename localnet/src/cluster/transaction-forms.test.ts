import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase58Decoder,
  getProgramDerivedAddress,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  type Nonce,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import {
  getCreateAccountInstruction,
  getInitializeNonceAccountInstruction,
  getTransferSolInstruction,
} from "@solana-program/system";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SubmissionRejected } from "./cluster-port";
import { createEmbeddedCluster, type EmbeddedCluster } from "./embedded-cluster";
import { buildWire, fundedSigner } from "./test-helpers";

const ALT_PROGRAM = address("AddressLookupTab1e1111111111111111111111111");
const SYSTEM_PROGRAM = address("11111111111111111111111111111111");

let cluster: EmbeddedCluster;
beforeEach(async () => {
  cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null });
});
afterEach(() => cluster.stop());

function landed(signature: string) {
  const record = cluster.getTransaction(signature);
  expect(record?.err, record?.logs.join("\n")).toBeNull();
  return record;
}

describe("durable-nonce transactions", () => {
  it("land long after their blockhash would have expired, once", async () => {
    // Given a nonce account whose authority is the payer
    const payer = await fundedSigner(cluster);
    const nonceAccount = await generateKeyPairSigner();
    landed(
      cluster.sendTransaction(
        await buildWire({
          payer,
          blockhash: cluster.getLatestBlockhash().blockhash,
          instructions: [
            getCreateAccountInstruction({
              payer,
              newAccount: nonceAccount,
              lamports: cluster.minimumBalanceForRentExemption(80),
              space: 80,
              programAddress: SYSTEM_PROGRAM,
            }),
            getInitializeNonceAccountInstruction({
              nonceAccount: nonceAccount.address,
              nonceAuthority: payer.address,
            }),
          ],
        }),
      ),
    );
    const nonce = getBase58Decoder().decode(
      cluster.getAccount(nonceAccount.address)?.data.subarray(40, 72) ?? new Uint8Array(),
    ) as Nonce;

    // When 200 slots pass and a transfer uses the nonce as its lifetime
    cluster.clock.advance(200);
    const sign = async (lamports: bigint) => {
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) =>
          setTransactionMessageLifetimeUsingDurableNonce(
            { nonce, nonceAccountAddress: nonceAccount.address, nonceAuthorityAddress: payer.address },
            m,
          ),
        (m) =>
          appendTransactionMessageInstructions(
            [getTransferSolInstruction({ source: payer, destination: payer.address, amount: lamports })],
            m,
          ),
      );
      return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)));
    };

    // Then it lands, and the nonce has moved on, so another use of the old value is refused
    landed(cluster.sendTransaction(await sign(1n)));
    const again = await sign(2n);
    expect(() => cluster.sendTransaction(again)).toThrow(
      expect.objectContaining({ kind: "blockhash_not_found" }) as SubmissionRejected,
    );
  });
});

describe("v0 transactions with an address lookup table", () => {
  async function createLookupTable(authority: KeyPairSigner, addresses: Address[]): Promise<Address> {
    const recentSlot = cluster.getSlot("confirmed");
    const slotBytes = new Uint8Array(8);
    new DataView(slotBytes.buffer).setBigUint64(0, recentSlot, true);
    const [table, bump] = await getProgramDerivedAddress({
      programAddress: ALT_PROGRAM,
      seeds: [getAddressEncoder().encode(authority.address), slotBytes],
    });
    const metas = [
      { address: table, role: AccountRole.WRITABLE },
      { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
      { address: authority.address, role: AccountRole.WRITABLE_SIGNER, signer: authority },
      { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    ];
    // bincode ProgramInstruction: CreateLookupTable = 0 { recent_slot: u64, bump_seed: u8 },
    // ExtendLookupTable = 2 { new_addresses: Vec<Pubkey> }.
    const create: Instruction = {
      programAddress: ALT_PROGRAM,
      accounts: metas,
      data: new Uint8Array([0, 0, 0, 0, ...slotBytes, bump]),
    };
    const count = new Uint8Array(8);
    new DataView(count.buffer).setBigUint64(0, BigInt(addresses.length), true);
    const extend: Instruction = {
      programAddress: ALT_PROGRAM,
      accounts: metas,
      data: new Uint8Array([
        2,
        0,
        0,
        0,
        ...count,
        ...addresses.flatMap((a) => [...getAddressEncoder().encode(a)]),
      ]),
    };
    landed(
      cluster.sendTransaction(
        await buildWire({
          payer: authority,
          blockhash: cluster.getLatestBlockhash().blockhash,
          instructions: [create, extend],
        }),
      ),
    );
    return table;
  }

  it("records the loaded addresses, their balances, and indexes them for getSignaturesForAddress", async () => {
    // Given a table holding two recipients (usable from the slot after it was extended)
    const payer = await fundedSigner(cluster);
    const [a, b] = [(await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address];
    const table = await createLookupTable(payer, [a, b]);
    cluster.clock.advance(1);

    // When a v0 transfer pays both through the table
    const message = compressTransactionMessageUsingAddressLookupTables(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: cluster.getLatestBlockhash().blockhash as Blockhash, lastValidBlockHeight: 0n },
            m,
          ),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getTransferSolInstruction({ source: payer, destination: a, amount: 1_000_000_000n }),
              getTransferSolInstruction({ source: payer, destination: b, amount: 2_000_000_000n }),
            ],
            m,
          ),
      ),
      { [table]: [a, b] },
    );
    const wire = new Uint8Array(
      getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)),
    );
    const record = landed(cluster.sendTransaction(wire));

    // Then the record has them as loaded (writable) addresses (in the message's lookup order), with
    // their balances after the static keys'
    expect(record?.accountKeys).toEqual([payer.address, SYSTEM_PROGRAM]);
    expect([...(record?.loadedAddresses.writable ?? [])].sort()).toEqual([a, b].sort());
    expect(record?.loadedAddresses.readonly).toEqual([]);
    const balanceAfter = (key: Address) =>
      record?.postBalances[2 + (record?.loadedAddresses.writable.indexOf(key) ?? -1)];
    expect(record?.preBalances.slice(2)).toEqual([0n, 0n]);
    expect([balanceAfter(a), balanceAfter(b)]).toEqual([1_000_000_000n, 2_000_000_000n]);
    expect(cluster.getSignaturesForAddress(b).map((s) => s.signature)).toEqual([record?.signature]);
  });
});

describe("inner instructions", () => {
  it("are recorded per top-level instruction with their stack height", async () => {
    // Given a USDG mint to a new owner (the ATA program CPIs into System and Token-2022)
    const { signature } = await cluster.mintUsdgToOwner((await generateKeyPairSigner()).address, 1n);

    // Then the first instruction's CPIs are recorded at stack height 2
    const record = landed(signature);
    const group = record?.innerInstructions[0];
    expect(group?.index).toBe(0);
    expect(group?.instructions.length).toBeGreaterThan(1);
    expect(group?.instructions.every((ix) => ix.stackHeight === 2)).toBe(true);
    const programs = group?.instructions.map((ix) => record?.accountKeys[ix.programIdIndex]);
    expect(programs).toContain(SYSTEM_PROGRAM);
  });
});
