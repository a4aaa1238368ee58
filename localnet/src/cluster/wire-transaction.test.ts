import {
  decodeWireTransaction,
  MalformedTransaction,
  readWireMessage,
  readWireTransaction,
  WireFormatError,
} from "@cpay/sdk/chain";
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { describe, expect, it } from "vitest";
import { MEMO_PROGRAM, memoInstruction } from "./test-helpers";

const BLOCKHASH = "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM" as Blockhash;
const AGAVE = { v1: false };

/** A signed one-instruction memo transaction of `version`: wire bytes and message bytes. */
async function memoTransaction(version: "legacy" | 0 | 1) {
  const payer = await generateKeyPairSigner();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash({ blockhash: BLOCKHASH, lastValidBlockHeight: 0n }, m),
      (m) => appendTransactionMessageInstructions([memoInstruction(MEMO_PROGRAM, "cpay")], m),
    ),
  );
  return {
    payer,
    wire: new Uint8Array(getTransactionEncoder().encode(signed)),
    messageBytes: new Uint8Array(signed.messageBytes),
  };
}

const readError = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(WireFormatError);
    return (error as Error).message;
  }
  throw new Error("expected a WireFormatError");
};

describe("reading wire transactions", () => {
  it("Given a legacy transaction, When read, Then signatures, header, keys and instructions come out as Solana names them", async () => {
    const { payer, wire } = await memoTransaction("legacy");
    const read = readWireTransaction(wire, AGAVE);
    expect(read.version).toBe("legacy");
    expect(read.signatures).toHaveLength(1);
    expect(read.signature).toBe(read.signatures[0]);
    expect(read.header).toEqual({
      numRequiredSignatures: 1,
      numReadonlySignedAccounts: 0,
      numReadonlyUnsignedAccounts: 1,
    });
    expect(read.staticAccounts).toEqual([payer.address, MEMO_PROGRAM]);
    expect(read.recentBlockhash).toBe(BLOCKHASH);
    expect(read.instructions).toEqual([
      { programIndex: 1, accountIndices: [], data: new TextEncoder().encode("cpay") },
    ]);
    expect(decodeWireTransaction(wire)).toEqual(read);
  });

  it("Given an all-zero signature, When read, Then it shows as 64 '1's, as Solana shows it", async () => {
    const { wire } = await memoTransaction(0);
    wire.fill(0, 1, 65);
    expect(readWireTransaction(wire, AGAVE).signatures).toEqual(["1".repeat(64)]);
  });

  it("Given malformed bytes, When read, Then the error is bincode's text, as agave's RPC words it", async () => {
    const { wire, messageBytes } = await memoTransaction(0);
    const eof = "io error: unexpected end of file";
    expect(readError(() => readWireTransaction(new Uint8Array([1, 2, 3]), AGAVE))).toBe(eof);
    expect(readError(() => readWireTransaction(wire.subarray(0, wire.length - 1), AGAVE))).toBe(eof);
    // Kit reads a missing trailing array length as an empty array; bincode runs out of bytes.
    expect(readError(() => readWireMessage(messageBytes.subarray(0, messageBytes.length - 1), AGAVE))).toBe(
      eof,
    );
    // 1 as a two-byte short_vec, for the signature count and for the instruction data length.
    const nonCanonical = "invalid value: non-canonical short_vec length";
    expect(
      readError(() => readWireTransaction(Uint8Array.from([0x81, 0x00, ...wire.subarray(1)]), AGAVE)),
    ).toBe(nonCanonical);
    const dataLength = wire.length - 6; // then 4 data bytes and the (empty) lookup count
    expect(wire[dataLength]).toBe(4);
    const longLength = Uint8Array.from([
      ...wire.subarray(0, dataLength),
      0x84,
      0x00,
      ...wire.subarray(dataLength + 1),
    ]);
    expect(readError(() => readWireTransaction(longLength, AGAVE))).toBe(nonCanonical);
    expect(readError(() => readWireTransaction(Uint8Array.from([0xff, 0xff, 0xff, 0x01]), AGAVE))).toBe(
      "invalid value: short_vec length overflows u16",
    );
    const version = (byte: number) => Uint8Array.from([...wire.subarray(0, 65), byte, ...wire.subarray(66)]);
    expect(readError(() => readWireTransaction(version(0x85), AGAVE))).toBe(
      "invalid value: integer `5`, expected a valid transaction message version",
    );
  });

  it("Given trailing bytes, When read, Then they are left unread, and the cluster's decoder refuses them", async () => {
    const { wire } = await memoTransaction("legacy");
    const trailing = Uint8Array.from([...wire, 0]);
    expect(readWireTransaction(trailing, AGAVE)).toEqual(readWireTransaction(wire, AGAVE));
    expect(() => decodeWireTransaction(trailing)).toThrow(
      new MalformedTransaction("transaction has trailing bytes"),
    );
  });

  it("Given fewer signatures than signers, When decoded for the cluster, Then kit's words say so", async () => {
    const { wire } = await memoTransaction("legacy");
    const unsigned = Uint8Array.from([0, ...wire.subarray(65)]);
    expect(readWireTransaction(unsigned, AGAVE).signatures).toEqual([]);
    expect(() => decodeWireTransaction(unsigned)).toThrow(
      "cannot decode transaction: The transaction message expected the transaction to have 1 signatures, got 0.",
    );
  });

  it("Given a v1 transaction (message first), When read, Then the cluster reads it and agave's reading does not", async () => {
    const { wire } = await memoTransaction(1);
    expect(wire[0]).toBe(0x81);
    const decoded = decodeWireTransaction(wire);
    expect(decoded.version).toBe(1);
    expect(decoded.signature).toBe(getBase58Decoder().decode(wire.subarray(wire.length - 64)));
    // Agave reads 0x81 0x01 as a count of 129 signatures, which runs past the packet.
    expect(readError(() => readWireTransaction(wire, AGAVE))).toBe("io error: unexpected end of file");
    const message = wire.subarray(0, wire.length - 64);
    expect(readError(() => readWireMessage(message, AGAVE))).toBe(
      "invalid value: integer `1`, expected a valid transaction message version",
    );
    expect(readWireMessage(message, { v1: true }).version).toBe(1);
  });
});
