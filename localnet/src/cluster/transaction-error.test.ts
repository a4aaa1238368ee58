import { AccountRole, address } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedCluster, type EmbeddedCluster } from "./embedded-cluster";
import { buildWire, fundedSigner } from "./test-helpers";
import { transactionErrorName } from "./transaction-error";

describe("LiteSVM errors as Solana TransactionError JSON", () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null });
  });
  afterAll(() => cluster.stop());

  it("names the binding's unit variants in declaration order", () => {
    // Pinned by failures observed from litesvm 1.5.0 (fee payer missing, bad signature, no program).
    expect(transactionErrorName(2)).toBe("AccountNotFound");
    expect(transactionErrorName(7)).toBe("BlockhashNotFound");
    expect(transactionErrorName(11)).toBe("SignatureFailure");
    expect(transactionErrorName(12)).toBe("InvalidProgramForExecution");
  });

  it("maps a fieldless instruction error and the failing instruction's index", async () => {
    // Given a transaction whose second instruction is garbage for the System program
    const payer = await fundedSigner(cluster);
    const system = address("11111111111111111111111111111111");
    const wire = await buildWire({
      payer,
      blockhash: cluster.getLatestBlockhash().blockhash,
      instructions: [
        {
          programAddress: address("ComputeBudget111111111111111111111111111111"),
          data: new Uint8Array([2, 0x40, 0x0d, 0x03, 0]),
        },
        {
          programAddress: system,
          accounts: [{ address: payer.address, role: AccountRole.WRITABLE_SIGNER }],
          data: new Uint8Array([0xff]),
        },
      ],
    });

    // When it lands, Then the error is Solana's JSON
    const record = cluster.getTransaction(cluster.sendTransaction(wire));
    expect(record?.err).toEqual({ InstructionError: [1, "InvalidInstructionData"] });
  });

  it("maps a duplicate compute-budget instruction (refused before execution)", async () => {
    const payer = await fundedSigner(cluster);
    const limit = {
      programAddress: address("ComputeBudget111111111111111111111111111111"),
      data: new Uint8Array([2, 1, 0, 0, 0]),
    };
    const wire = await buildWire({
      payer,
      blockhash: cluster.getLatestBlockhash().blockhash,
      instructions: [limit, limit],
    });
    expect(() => cluster.sendTransaction(wire)).toThrow(expect.objectContaining({ kind: "load_failed" }));
    expect(cluster.simulateTransaction(wire).err).toEqual({ DuplicateInstruction: 1 });
  });
});
