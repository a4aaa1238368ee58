/**
 * An agent account as an x402 payer: a scheme client of `@x402/core` (`SchemeNetworkClient`,
 * scheme `exact`) registered for the agent's own cluster, so `@x402/core`'s `x402Client` and
 * `@x402/fetch`'s `wrapFetchWithPayment` pay with it. Each payment is the agent's PDA spending
 * through `agent_transfer` (agent-x402-payment.ts): the on-chain policy binds it, whoever submits.
 *
 * The network is the agent's cluster's CAIP-2 id (x402-network.ts): a requirement on another
 * network, in another scheme or in x402 v1 is not this payer's (`unpayable_requirement`).
 */
import { type Address, address, type TransactionSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import type { PaymentPayloadResult, PaymentRequirements, SchemeNetworkClient } from "@x402/core/types";
import type { ChainPort } from "../chain/chain-port";
import { buildAgentX402Payment } from "./agent-x402-payment";
import { type ExactSvmRequirement, readExactRequirement } from "./exact-requirement";
import { unpayable } from "./x402-errors";
import { solanaNetworkOf } from "./x402-network";

const X402_VERSION = 2;
const TRANSFER_ID_BYTES = 16;

/** A payment the payer signed, as it is about to be handed to the resource server. */
export interface SignedX402Payment {
  readonly requirement: ExactSvmRequirement;
  /** The transfer id the program's event carries (the owner's records name the transfer by it). */
  readonly transferId: Uint8Array;
}

export interface AgentX402PayerConfig {
  /** The agent's cluster: reads only (the facilitator submits). */
  readonly chain: ChainPort;
  readonly agentSigner: TransactionSigner;
  /** The agent's PDA (its `public_key`). */
  readonly agent: Address;
  /** Default: the cluster's agent-policy program. */
  readonly programAddress?: Address;
  /** Runs once a payment is decided payable, before it is signed; throwing stops it (nothing signed). */
  readonly beforeSigning?: (requirement: ExactSvmRequirement) => Promise<void>;
  /** Told of each payment signed. */
  readonly onSigned?: (payment: SignedX402Payment) => void;
}

/** The scheme client, and the network it pays on. */
export interface AgentX402Scheme extends SchemeNetworkClient {
  readonly network: `solana:${string}`;
}

/** The `exact` scheme client of the agent `config.agent` (see the file doc). */
export function createAgentX402Scheme(config: AgentX402PayerConfig): AgentX402Scheme {
  const network = solanaNetworkOf(config.chain.genesisHash);
  const programAddress = config.programAddress ?? address(config.chain.programId);
  return {
    scheme: "exact",
    network,
    async createPaymentPayload(
      x402Version: number,
      requirements: PaymentRequirements,
    ): Promise<PaymentPayloadResult> {
      if (x402Version !== X402_VERSION) {
        throw unpayable(
          "x402Version",
          `x402 version ${x402Version}; this payer speaks version ${X402_VERSION}`,
        );
      }
      const requirement = readExactRequirement(requirements, network);
      const transferId = crypto.getRandomValues(new Uint8Array(TRANSFER_ID_BYTES));
      const transaction = await buildAgentX402Payment(config.chain, {
        agentSigner: config.agentSigner,
        agent: config.agent,
        programAddress,
        requirement,
        transferId,
        ...(config.beforeSigning === undefined ? {} : { beforeSigning: config.beforeSigning }),
      });
      config.onSigned?.({ requirement, transferId });
      return { x402Version, payload: { transaction } };
    },
  };
}

/**
 * An `x402Client` that pays with `scheme` alone, on its network, preferring a requirement in the
 * cluster's USDG when a 402 offers several assets. The client's own spend controls are off: they
 * would be a second, weaker copy of what the program enforces (assets, per-transaction and daily
 * limits, the approval threshold), and they refuse any mint outside `@x402/svm`'s built-in list.
 */
export function createAgentX402Client(scheme: AgentX402Scheme, chain: ChainPort): x402Client {
  return new x402Client()
    .register(scheme.network, scheme)
    .setSpendControls(false)
    .registerPolicy((_version, requirements) => {
      const inUsdg = requirements.filter((requirement) => requirement.asset === chain.usdgMint);
      return inUsdg.length > 0 ? inUsdg : requirements;
    });
}
