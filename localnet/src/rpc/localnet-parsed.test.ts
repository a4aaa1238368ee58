import {
  address,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  sendAndConfirmTransactionFactory,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { fundedSigner, signedTransaction, useTestLocalnet } from "./test-support";
import { innerInstructionsJson } from "./transaction-encoding";

const base58 = getBase58Encoder();

describe("instructions in jsonParsed form, as payment verifiers read them", () => {
  const net = useTestLocalnet();

  it("Given a USDG transferChecked that opens the recipient's account, When simulated with innerInstructions and read back with jsonParsed, Then the transfer is parsed as Agave parses it", async () => {
    // Given an owner holding 1.2345 USDG and a recipient without a token account
    const owner = await fundedSigner(net, 1n);
    const mint = address(net.cluster.usdgMint);
    const { tokenAccount } = await net.cluster.mintUsdgToOwner(owner.address, 1_234_500n);
    const recipient = (await generateKeyPairSigner()).address;
    const [destination] = await findAssociatedTokenPda({
      owner: recipient,
      mint,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    });
    const transaction = await signedTransaction(net, owner, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: owner,
        owner: recipient,
        mint,
        ata: destination,
      }),
      getTransferCheckedInstruction({
        source: address(tokenAccount),
        mint,
        destination,
        authority: owner,
        amount: 1_234_500n,
        decimals: 6,
      }),
    ]);
    const wire = getBase64EncodedWireTransaction(transaction);

    // When simulated without and with innerInstructions
    const plain = await net.rpc.simulateTransaction(wire, { encoding: "base64" }).send();
    const inner = await net.rpc
      .simulateTransaction(wire, { encoding: "base64", innerInstructions: true })
      .send();

    // Then only the second answers the account opening's CPIs, by program id, with stack heights
    expect(plain.value.err).toBeNull();
    // kit's types leave innerInstructions out of this answer; the wire has it
    type WithInner = {
      innerInstructions: { index: number; instructions: { stackHeight: unknown }[] }[] | null;
    };
    expect((plain.value as unknown as WithInner).innerInstructions).toBeNull();
    const groups = (inner.value as unknown as WithInner).innerInstructions ?? [];
    expect(groups.map((group) => group.index)).toEqual([0]);
    const opened = groups[0]?.instructions ?? [];
    expect(opened.length).toBeGreaterThan(0);
    for (const ix of opened) {
      expect(ix).toHaveProperty("programId");
      expect(ix).not.toHaveProperty("programIdIndex");
      expect(ix.stackHeight).toBe(2);
    }

    // When it lands and is read back with jsonParsed
    await sendAndConfirmTransactionFactory(net)(transaction, { commitment: "confirmed" });
    const landed = await net.rpc
      .getTransaction(getSignatureFromTransaction(transaction), {
        encoding: "jsonParsed",
        maxSupportedTransactionVersion: 0,
        commitment: "confirmed",
      })
      .send();

    // Then the top-level transferChecked is parsed, the account opening left partially decoded
    const [open, paid] = landed?.transaction.message.instructions ?? [];
    expect(open).toMatchObject({ programId: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL" });
    expect(open).toHaveProperty("data");
    expect(paid).toEqual({
      program: "spl-token-2022",
      programId: TOKEN_2022_PROGRAM_ADDRESS,
      stackHeight: null,
      parsed: {
        type: "transferChecked",
        info: {
          source: tokenAccount,
          mint,
          destination,
          authority: owner.address,
          // kit reads integers as bigints; the wire has the number 6
          tokenAmount: { amount: "1234500", decimals: 6n, uiAmount: 1.2345, uiAmountString: "1.2345" },
        },
      },
    });
  });

  it("Given inner token transfers by a program (a CPI), When rendered with account keys, Then each is parsed with its signers, and data that does not parse stays partially decoded", () => {
    const keys = ["Source", "Mint", "Destination", "Pda", "Signer2", TOKEN_2022_PROGRAM_ADDRESS];
    const checked = Uint8Array.from([12, ...new Uint8Array(new BigUint64Array([500n]).buffer), 6]);
    const plain = Uint8Array.from([3, ...new Uint8Array(new BigUint64Array([1_000_000n]).buffer)]);
    const rendered = innerInstructionsJson(
      [
        {
          index: 1,
          instructions: [
            { programIdIndex: 5, accounts: [0, 1, 2, 3], data: checked, stackHeight: 2 },
            { programIdIndex: 5, accounts: [0, 2, 3, 4], data: plain, stackHeight: 2 },
            { programIdIndex: 5, accounts: [0, 1], data: checked, stackHeight: 3 },
          ],
        },
      ],
      keys,
    );
    expect(rendered).toEqual([
      {
        index: 1,
        instructions: [
          {
            program: "spl-token-2022",
            programId: TOKEN_2022_PROGRAM_ADDRESS,
            stackHeight: 2,
            parsed: {
              type: "transferChecked",
              info: {
                source: "Source",
                mint: "Mint",
                destination: "Destination",
                authority: "Pda",
                tokenAmount: { amount: "500", decimals: 6, uiAmount: 0.0005, uiAmountString: "0.0005" },
              },
            },
          },
          {
            program: "spl-token-2022",
            programId: TOKEN_2022_PROGRAM_ADDRESS,
            stackHeight: 2,
            parsed: {
              type: "transfer",
              info: {
                source: "Source",
                destination: "Destination",
                amount: "1000000",
                multisigAuthority: "Pda",
                signers: ["Signer2"],
              },
            },
          },
          {
            programId: TOKEN_2022_PROGRAM_ADDRESS,
            accounts: ["Source", "Mint"],
            data: expect.any(String),
            stackHeight: 3,
          },
        ],
      },
    ]);
    const partial = rendered[0] as { instructions: { data?: string }[] };
    expect(base58.encode(partial.instructions[2]?.data ?? "")).toEqual(checked);
  });
});
