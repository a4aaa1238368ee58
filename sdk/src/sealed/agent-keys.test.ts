import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportConfidentialSecret } from "../confidential/key-export";
import { deriveAgentConfidentialSecret, deriveConfidentialKeys } from "../confidential/keys";
import { keysetsAsHex } from "../confidential/keys.test-support";
import { deriveAgentViewingKeys, exportAgentSecret } from "./agent-keys";
import { deriveViewingKeys, importAccountSecret } from "./viewing-keys";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The agent's keys derived by the SDK (node:crypto + zk-sdk) and by the browser entry (noble). */
function bothWays(ownerSecret: Uint8Array, handle: string) {
  return keysetsAsHex(
    deriveConfidentialKeys(deriveAgentConfidentialSecret(ownerSecret, handle)),
    deriveAgentViewingKeys(ownerSecret, handle),
  );
}

describe("an agent's viewing keys from its owner's secret (noble) against the SDK's (zk-sdk)", () => {
  it("Given an owner secret and an agent handle, then the scalar, pubkey and AE key are byte-identical", () => {
    const { zk, view } = bothWays(new Uint8Array(32).fill(7), "alice/bot");
    expect(view).toEqual(zk);
  });

  it("Given any owner secret and any handle, then both derivations agree", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ maxLength: 40 }),
        (secret, name) => {
          const { zk, view } = bothWays(secret, `owner/${name}`);
          expect(view).toEqual(zk);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("Given the API's `@owner/name`, then the keys are those of `owner/name`; another agent's differ", () => {
    const secret = new Uint8Array(32).fill(9);
    expect(deriveAgentViewingKeys(secret, "@alice/bot")).toEqual(deriveAgentViewingKeys(secret, "alice/bot"));
    expect(hex(deriveAgentViewingKeys(secret, "alice/other").elgamalPubkey)).not.toBe(
      hex(deriveAgentViewingKeys(secret, "alice/bot").elgamalPubkey),
    );
  });

  it("Given an owner secret of the wrong length, then invalid_secret", () => {
    expect(() => deriveAgentViewingKeys(new Uint8Array(31), "alice/bot")).toThrow(
      expect.objectContaining({ code: "invalid_secret" }),
    );
  });
});

describe("an agent's exported confidential secret, from its owner's secret in the browser", () => {
  it("Given any owner secret and agent handle, then it is the SDK's exportConfidentialSecret(deriveAgentConfidentialSecret(...))", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ maxLength: 40 }),
        (secret, name) => {
          const sdk = exportConfidentialSecret(deriveAgentConfidentialSecret(secret, `owner/${name}`));
          expect(exportAgentSecret(secret, `owner/${name}`)).toBe(sdk);
          expect(exportAgentSecret(secret, `@owner/${name}`)).toBe(sdk);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("Given the exported secret, then it imports back to the keys the owner reads the agent with", () => {
    const owner = new Uint8Array(32).fill(3);
    const exported = exportAgentSecret(owner, "@alice/bot");
    expect(exported).toHaveLength(44);
    expect(deriveViewingKeys(importAccountSecret(exported))).toEqual(
      deriveAgentViewingKeys(owner, "alice/bot"),
    );
  });

  it("Given an owner secret of the wrong length, then invalid_secret", () => {
    expect(() => exportAgentSecret(new Uint8Array(33), "alice/bot")).toThrow(
      expect.objectContaining({ code: "invalid_secret" }),
    );
  });
});
