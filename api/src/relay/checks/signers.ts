/** Who may sign a relayed transaction besides the fee payer, and that each of them has signed it. */
import { createPublicKey, verify } from "node:crypto";
import { type Address, getAddressEncoder, type ReadonlyUint8Array } from "@solana/kit";
import { type CompiledMessage, type Refusal, type RelayPolicyContext, refuse } from "./verdict";

/**
 * Rules 3 and 4: every signer but the fee payer is the agent's key or a context account an allowed
 * CreateAccount creates here, and each of them has signed these exact message bytes.
 */
export function checkSigners(
  message: CompiledMessage,
  signatures: readonly (ReadonlyUint8Array | null)[],
  messageBytes: ReadonlyUint8Array,
  created: ReadonlySet<string>,
  ctx: RelayPolicyContext,
): Refusal | undefined {
  for (const [at, signer] of message.staticAccounts.entries()) {
    if (at === 0 || at >= signatures.length) continue;
    if (signer === ctx.agent.signer || created.has(signer)) continue;
    const users = message.instructions
      .flatMap((instruction, index) => ((instruction.accountIndices ?? []).includes(at) ? [index] : []))
      .map((index) => `instruction ${index}`);
    return refuse(
      "unexpected_signer",
      `account ${at} (${signer}) must sign but is neither the agent's signer nor a context created here (used by ${users.join(", ") || "no instruction"})`,
    );
  }
  for (const [at, signature] of signatures.entries()) {
    if (at === 0) continue;
    const signer = message.staticAccounts[at] as string;
    if (signature === null) {
      return refuse("missing_signature", `signature ${at} (${signer}) is empty`);
    }
    if (!verifiesEd25519(signer, messageBytes, signature)) {
      return refuse("missing_signature", `signature ${at} (${signer}) does not verify over the message`);
    }
  }
  return undefined;
}

/** Synchronous ed25519 verification (node:crypto), so the check needs no await. */
function verifiesEd25519(
  signer: string,
  message: ReadonlyUint8Array,
  signature: ReadonlyUint8Array,
): boolean {
  try {
    const publicKey = createPublicKey({
      key: {
        kty: "OKP",
        crv: "Ed25519",
        x: Buffer.from(getAddressEncoder().encode(signer as Address)).toString("base64url"),
      },
      format: "jwk",
    });
    return verify(null, message as Uint8Array, publicKey, signature as Uint8Array);
  } catch {
    return false;
  }
}
