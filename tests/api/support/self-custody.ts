/**
 * Self-custody agents for the relay suites: an agent created through the API with `custody:
 * "self"` (its signer's seed comes back once, in the creating response), its key, and what its
 * holder would build — public agent transfers signed by the agent and naming the service's fee
 * payer, its slot left empty for the relay.
 */
import { randomBytes } from "node:crypto";
import { type IssuedKey, issueApiKey } from "@cpay/api";
import { keyFromSeed, partiallySignTransactionToWire } from "@cpay/localnet/cluster";
import { buildAgentTransferInstruction } from "@cpay/sdk";
import { type AgentClient, createAgentClient, createApiRelayTransport } from "@cpay/sdk/agent-client";
import { readAgentAccount } from "@cpay/sdk/agent-confidential";
import type { TCreatedAgent } from "@cpay/sdk/api";
import { type ConfidentialKeyset, findTokenAccount } from "@cpay/sdk/confidential";
import {
  type Address,
  address,
  createNoopSigner,
  getBase58Encoder,
  getBase64Decoder,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { ApiWorld, WorldAccount } from "../../support/api-world";
import { TEST_POLICY } from "./agents";

export interface SelfCustodyAgent {
  readonly created: TCreatedAgent;
  readonly pda: Address;
  /** The signer the agent holds (from `signer_secret`). */
  readonly signer: KeyPairSigner;
  readonly key: IssuedKey;
}

export async function createSelfCustodyAgent(
  world: ApiWorld,
  owner: WorldAccount,
  name: string,
): Promise<SelfCustodyAgent> {
  const created = await owner.client.call("createAgent", {
    body: { name, spend_policy: TEST_POLICY, custody: "self" },
  });
  if (created.signer_secret === null) throw new Error("a self-custody agent came without its signer");
  const seed = new Uint8Array(getBase58Encoder().encode(created.signer_secret));
  const signer = await keyFromSeed(name, seed).toSigner();
  const key = await issueApiKey(world.service.context, {
    accountId: created.account_id,
    name: "self-custody agent",
    environment: "test",
  });
  return { created, pda: address(created.public_key), signer, key };
}

/**
 * The SDK's agent client as the agent's holder runs it: signing with the agent's own signer and
 * sending through the service's relay under the agent's key; `keys` for confidential spends.
 */
export function selfCustodyClient(
  world: ApiWorld,
  agent: SelfCustodyAgent,
  keys?: ConfidentialKeyset,
): AgentClient {
  return createAgentClient({
    chain: world.chain,
    relay: createApiRelayTransport(world.clientFor(agent.key.value)),
    agentSigner: agent.signer,
    agent: agent.pda,
    keys,
    mint: address(world.chain.usdgMint),
  });
}

/** The instructions of a public agent transfer (ATA create for the recipient + agent_transfer). */
export async function publicTransferInstructions(
  world: ApiWorld,
  input: {
    readonly agent: Address;
    readonly signer: KeyPairSigner;
    readonly recipient: Address;
    readonly amount: bigint;
  },
): Promise<Instruction[]> {
  const feePayer = createNoopSigner(world.service.context.feePayer.address);
  const mint = address(world.chain.usdgMint);
  const [source, destination] = await Promise.all([
    findTokenAccount(input.agent, mint),
    findTokenAccount(input.recipient, mint),
  ]);
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: feePayer,
      ata: destination,
      owner: input.recipient,
      mint,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    }),
    await buildAgentTransferInstruction({
      agentSigner: input.signer,
      agent: input.agent,
      nextHoldNonce: (await readAgentAccount(world.chain, input.agent)).nextHoldNonce,
      mint,
      source,
      destination,
      amount: input.amount,
      transferId: new Uint8Array(randomBytes(16)),
      payer: feePayer,
      programAddress: address(world.chain.programId),
    }),
  ];
}

/** `instructions` as the agent signs them: fee payer = the service's, its slot empty; base64. */
export async function agentSigned(world: ApiWorld, instructions: readonly Instruction[]): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await world.chain.getLatestBlockhash();
  const { wire } = await partiallySignTransactionToWire({
    feePayer: createNoopSigner(world.service.context.feePayer.address),
    instructions,
    blockhash,
    lastValidBlockHeight,
  });
  return getBase64Decoder().decode(wire);
}

/** `agent`'s public transfer of `amount` to `recipient` (its token account created), as the agent signs it. */
export async function signedPublicTransfer(
  world: ApiWorld,
  agent: SelfCustodyAgent,
  recipient: Address,
  amount: bigint,
): Promise<string> {
  return agentSigned(
    world,
    await publicTransferInstructions(world, { agent: agent.pda, signer: agent.signer, recipient, amount }),
  );
}
