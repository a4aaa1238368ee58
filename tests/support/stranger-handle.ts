/**
 * handle_register in the policy world: `handle` registered for the stranger's wallet (a wallet no
 * handle names yet), signed by the config's registrar unless another signer is given, paid by the
 * fee payer. The program suites vary one input at a time around it.
 */
import { buildHandleRegisterInstruction } from "@cpay/sdk";
import type { Instruction, KeyPairSigner } from "@solana/kit";
import type { PolicyWorld } from "./policy-world";

export function registerForStranger(
  world: PolicyWorld,
  handle: string,
  options: { readonly kind?: "personal" | "business"; readonly registrar?: KeyPairSigner } = {},
): Promise<Instruction> {
  return buildHandleRegisterInstruction({
    registrar: options.registrar ?? world.registrar,
    payer: world.feePayer,
    handle,
    kind: options.kind ?? "personal",
    wallet: world.stranger.address,
  });
}
