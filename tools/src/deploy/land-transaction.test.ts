/**
 * landTransaction against a scripted RPC: what a real endpoint does to a deploy's transactions.
 * A send that fails at the transport but reached the leader is followed, not sent again; a dropped
 * transaction is signed again once its blockhash expired; 429s are waited out; a transaction that
 * lands failed is an error naming it.
 */
import { type ChainPort, ChainUnavailable, type SignatureStatus } from "@cpay/sdk/chain";
import { generateKeyPairSigner, getBase58Decoder } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { DeployError } from "./deploy-error";
import { landTransaction } from "./land-transaction";

interface Script {
  /** Per send (1-based): what happens to it. */
  send(n: number): "lands" | "lands-but-transport-fails" | "dropped" | "lands-failed";
  /** Failures of getLatestBlockhash before it answers. */
  readonly blockhashFailures?: number;
}

function scriptedChain(script: Script) {
  const landed = new Map<string, SignatureStatus>();
  const expired = new Set<string>();
  let blockhashCalls = 0;
  let sends = 0;
  const chain = {
    async getLatestBlockhash() {
      blockhashCalls += 1;
      if (blockhashCalls <= (script.blockhashFailures ?? 0)) {
        throw new ChainUnavailable("the RPC endpoint answered HTTP 429");
      }
      const bytes = new Uint8Array(32);
      bytes[0] = blockhashCalls;
      return { blockhash: getBase58Decoder().decode(bytes), lastValidBlockHeight: 100n };
    },
    async sendTransaction(wire: Uint8Array) {
      sends += 1;
      const signature = getBase58Decoder().decode(wire.subarray(1, 65));
      const fate = script.send(sends);
      if (fate === "dropped") {
        expired.add(signature);
        return signature;
      }
      landed.set(signature, {
        slot: 10n,
        confirmations: 0,
        confirmationStatus: "processed",
        err: fate === "lands-failed" ? { InstructionError: [0, "Custom"] } : null,
      } as SignatureStatus);
      if (fate === "lands-but-transport-fails")
        throw new ChainUnavailable("the RPC endpoint did not answer in time");
      return signature;
    },
    async getSignatureStatus(signature: string) {
      return landed.get(signature) ?? null;
    },
    async isBlockhashValid() {
      // Only a dropped transaction is ever waited on past its first read: its blockhash has gone.
      return false;
    },
  } as unknown as ChainPort;
  return { chain, sends: () => sends, landed };
}

async function transfer() {
  const payer = await generateKeyPairSigner();
  const to = await generateKeyPairSigner();
  return {
    feePayer: payer,
    what: "a test transfer",
    instructions: [getTransferSolInstruction({ source: payer, destination: to.address, amount: 1n })],
  };
}

describe("landTransaction", () => {
  it("Given a send whose answer is lost but which landed, Then it is followed to landing and never sent twice", async () => {
    const { chain, sends, landed } = scriptedChain({ send: () => "lands-but-transport-fails" });
    const signature = await landTransaction(chain, await transfer(), { pollMs: 1 });
    expect(sends()).toBe(1);
    expect(landed.has(signature)).toBe(true);
  });

  it("Given a dropped transaction, Then it is signed again with a new blockhash and sent once more", async () => {
    const { chain, sends, landed } = scriptedChain({ send: (n) => (n === 1 ? "dropped" : "lands") });
    const signature = await landTransaction(chain, await transfer(), { pollMs: 1 });
    expect(sends()).toBe(2);
    expect([...landed.keys()]).toEqual([signature]);
  });

  it("Given 429s from the endpoint, Then it backs off and lands", async () => {
    const { chain, sends } = scriptedChain({ send: () => "lands", blockhashFailures: 2 });
    await landTransaction(chain, await transfer(), { pollMs: 1 });
    expect(sends()).toBe(1);
  });

  it("Given a transaction that lands failed, Then it is a DeployError naming it", async () => {
    const { chain, sends } = scriptedChain({ send: () => "lands-failed" });
    await expect(landTransaction(chain, await transfer(), { pollMs: 1 })).rejects.toThrow(DeployError);
    expect(sends()).toBe(1);
  });

  it("Given a transaction dropped every time, Then it gives up after a bounded number of attempts", async () => {
    const { chain, sends } = scriptedChain({ send: () => "dropped" });
    await expect(landTransaction(chain, await transfer(), { pollMs: 1 })).rejects.toThrow(
      "did not land in 8 attempts",
    );
    expect(sends()).toBe(8);
  });
});
