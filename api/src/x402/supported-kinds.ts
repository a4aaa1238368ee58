/**
 * `GET /supported`: what the facilitator settles, as `HTTPFacilitatorClient` reads it — x402 v2,
 * scheme `exact`, on each network of the environment (x402-networks.ts), with the fee reserve as
 * `extra.feePayer` (the address a payer names as its transaction's fee payer) and smart-wallet
 * payments supported (cpay agents'). `signers` lists the fee payer per CAIP family, as the official
 * facilitator does.
 */
import type { ServiceContext } from "../core/service-context";
import type { TX402SupportedResponse } from "./x402-contracts";
import { x402NetworksOf } from "./x402-networks";

export function supportedKinds(service: ServiceContext): TX402SupportedResponse {
  const feePayer = service.feePayer.address;
  return {
    kinds: x402NetworksOf(service).map((network) => ({
      x402Version: 2,
      scheme: "exact",
      network,
      extra: { feePayer, features: { smartWalletSupported: true } },
    })),
    extensions: [],
    signers: { "solana:*": [feePayer] },
  };
}
