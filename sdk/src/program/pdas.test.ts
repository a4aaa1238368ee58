import { createHash } from "node:crypto";
import { type Address, address, getAddressEncoder, getProgramDerivedAddress } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AGENT_POLICY_PROGRAM_ADDRESS } from "../generated";
import { findProgramDataAddress } from "../program/upgradeable-loader";
import { HandleValidationError } from "./handles";
import {
  findAgentPda,
  findConfigPda,
  findHandlePda,
  findPendingTransactionPda,
  findPolicyPda,
  findProgramDataPda,
  findReceiptPda,
  handleHash,
} from "./pdas";

const PROGRAM = AGENT_POLICY_PROGRAM_ADDRESS;
const OTHER_PROGRAM = TOKEN_2022_PROGRAM_ADDRESS;
const AGENT = address("HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr");

const sha256 = (text: string) => new Uint8Array(createHash("sha256").update(text).digest());
const derive = (seeds: (string | Uint8Array)[], programAddress: Address = PROGRAM) =>
  getProgramDerivedAddress({ programAddress, seeds });

describe("program-derived addresses", () => {
  it("derives config, policy and receipt from the README seeds", async () => {
    expect(await findConfigPda()).toEqual(await derive(["config"]));
    expect(await findPolicyPda({ agent: AGENT })).toEqual(
      await derive(["policy", new Uint8Array(getAddressEncoder().encode(AGENT))]),
    );
    const transferId = Uint8Array.from({ length: 16 }, (_, i) => i);
    expect(await findReceiptPda({ sender: AGENT, transferId })).toEqual(
      await derive(["receipt", new Uint8Array(getAddressEncoder().encode(AGENT)), transferId]),
    );
  });

  it("hashes the normalised handle for Handle and Agent PDAs", async () => {
    // Given a handle as typed and its normalised bytes
    expect(await handleHash("@Acme")).toEqual(sha256("acme"));
    // When deriving / Then sha256(normalised handle) is the seed
    expect(await findHandlePda({ handle: "@Acme" })).toEqual(await derive(["handle", sha256("acme")]));
    expect(await findHandlePda({ handle: "Acme/Bot" })).toEqual(await derive(["handle", sha256("acme/bot")]));
    expect(await findAgentPda({ agentHandle: "@Acme/Payroll-Bot" })).toEqual(
      await derive(["agent", sha256("acme/payroll-bot")]),
    );
  });

  it("refuses handles outside the grammar instead of deriving a useless address", async () => {
    await expect(findHandlePda({ handle: "pay..acme" })).rejects.toBeInstanceOf(HandleValidationError);
    await expect(findAgentPda({ agentHandle: "acme" })).rejects.toBeInstanceOf(HandleValidationError);
  });

  it("encodes the pending nonce as u64 little-endian", async () => {
    const nonceLe = new Uint8Array([2, 1, 0, 0, 0, 0, 0, 0]);
    const agentBytes = new Uint8Array(getAddressEncoder().encode(AGENT));
    expect(await findPendingTransactionPda({ agent: AGENT, nonce: 258n })).toEqual(
      await derive(["pending", agentBytes, nonceLe]),
    );
  });

  it("refuses a transfer id that is not 16 bytes", async () => {
    await expect(findReceiptPda({ sender: AGENT, transferId: new Uint8Array(15) })).rejects.toThrow(
      RangeError,
    );
    await expect(findReceiptPda({ sender: AGENT, transferId: new Uint8Array(17) })).rejects.toThrow(
      RangeError,
    );
  });

  it("derives the ProgramData account under the upgradeable loader", async () => {
    const [programData] = await findProgramDataPda();
    expect(programData).toBe(await findProgramDataAddress(PROGRAM));
  });

  it("derives under another program id when asked", async () => {
    expect(await findConfigPda({ programAddress: OTHER_PROGRAM })).toEqual(
      await derive(["config"], OTHER_PROGRAM),
    );
    expect(await findHandlePda({ handle: "acme" }, { programAddress: OTHER_PROGRAM })).toEqual(
      await derive(["handle", sha256("acme")], OTHER_PROGRAM),
    );
  });

  it("gives distinct pending addresses to distinct nonces (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: 2n ** 64n - 2n }), async (nonce) => {
        const [a] = await findPendingTransactionPda({ agent: AGENT, nonce });
        const [b] = await findPendingTransactionPda({ agent: AGENT, nonce: nonce + 1n });
        expect(a).not.toBe(b);
      }),
      { numRuns: 25 },
    );
  });
});
