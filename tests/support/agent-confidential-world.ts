/**
 * The world of the agent confidential suites: the policy world (tests/support/policy-world.ts: the
 * real .so in an embedded cluster, `alice/bot` with 1,000 public USDG, recipients, time at 12:00 UTC
 * on DAY_ZERO) plus deterministic confidential keys for the agent's USDG account and for recipients,
 * and helpers that run every flow through `@cpay/sdk/agent-confidential` exactly as a client does.
 *
 * Nothing here bypasses the SDK: attack suites reach below it with the exported builders and
 * `unsafeForgedLimits`, and read what happened with the decoders and balance helpers below.
 */
import { createHash } from "node:crypto";
import {
  type AgentConfidentialTransferInput,
  type AgentConfidentialTransferResult,
  applyAgentPendingBalance,
  depositAgentConfidential,
  type Hold,
  listAgentPendingTransactions,
  type ProverState,
  policySpendStateOf,
  proverStateOf,
  setupAgentConfidentialAccount,
  transferAgentConfidential,
  utcDayIndex,
} from "@cpay/sdk/agent-confidential";
import {
  availableBalance,
  type ConfidentialKeyset,
  decryptPendingBalance,
  deriveConfidentialKeys,
  setupConfidentialAccount,
  tokenAccountOf,
} from "@cpay/sdk/confidential";
import type { KeyPairSigner } from "@solana/kit";
import {
  createPolicyWorld,
  type Party,
  type PolicyWorld,
  type RecipientName,
  transferId,
  type WorldAgent,
} from "./policy-world";
import { perSuite } from "./shared-set-up";

/** The deterministic 32-byte confidential secret of `label` (public seed: test use only). */
export function testConfidentialSecret(label: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(`cpay confidential tests ${label}`).digest());
}

/** Deterministic confidential keys of `label`, derived from its secret as a client does. */
export function testConfidentialKeys(label: string): ConfidentialKeyset {
  return deriveConfidentialKeys(testConfidentialSecret(label));
}

export interface ConfidentialRecipient extends Party {
  readonly keys: ConfidentialKeyset;
}

/** What `confidentialTransfer` takes: the SDK input minus what the world knows. */
export type WorldConfidentialTransfer = Partial<
  Omit<AgentConfidentialTransferInput, "amount" | "recipient" | "agent">
> & {
  readonly amount: bigint;
  /** Default `bob` (paid by handle). */
  readonly to?: RecipientName;
  readonly agent?: WorldAgent;
};

export interface AgentConfidentialWorld extends PolicyWorld {
  /** The confidential keys of an agent's USDG account (deterministic per agent handle). */
  agentKeys(agent?: WorldAgent): ConfidentialKeyset;
  /** The 32-byte secret `agentKeys` derives from: all an agent keeps across a restart. */
  agentSecret(agent?: WorldAgent): Uint8Array;
  /** Configures the agent's USDG account for confidential transfers (signed by its agent signer). */
  setupAgent(agent?: WorldAgent): Promise<void>;
  /** Deposits `amount` of the agent's public USDG and applies it: all of it becomes available. */
  fundAgent(amount: bigint, agent?: WorldAgent): Promise<void>;
  /** A recipient whose USDG account is configured for confidential transfers (cached per name). */
  confidentialRecipient(name?: RecipientName): Promise<ConfidentialRecipient>;
  /** An agent confidential transfer through the SDK (ids are fresh unless given). */
  confidentialTransfer(transfer: WorldConfidentialTransfer): Promise<AgentConfidentialTransferResult>;
  /** The agent's available confidential balance (AE fast path). */
  agentAvailable(agent?: WorldAgent): bigint;
  /** The recipient's pending confidential balance (ElGamal decryption of lo/hi). */
  recipientPending(name?: RecipientName): Promise<bigint>;
  /** Today's prover state, rebuilt from chain with the agent's keys. */
  proverState(agent?: WorldAgent): ProverState;
  /** The agent's open holds (confidential ones with `amount: null`). */
  holds(agent?: WorldAgent): Promise<Hold[]>;
}

/**
 * The policy world plus confidential helpers. The agent's account is not configured yet: call
 * `setupAgent` (and `fundAgent`) first, so suites can also test the unconfigured state.
 */
export async function createAgentConfidentialWorld(
  options: Parameters<typeof createPolicyWorld>[0] = {},
): Promise<AgentConfidentialWorld> {
  const world = await createPolicyWorld(options);
  const { cluster, chain, usdgMint, feePayer } = world;
  const recipients = new Map<RecipientName, ConfidentialRecipient>();
  let nextTransferId = 1_000_000;

  const agentSecret = (agent: WorldAgent = world.agent) =>
    testConfidentialSecret(`agent ${agent.handle} usdg`);
  const agentKeys = (agent: WorldAgent = world.agent) => deriveConfidentialKeys(agentSecret(agent));
  // The suites' own synchronous reads of the simulator (assertions), not a client's path.
  const confidentialStateOf = (tokenAccount: string) =>
    tokenAccountOf(tokenAccount, cluster.getAccount(tokenAccount))?.confidential ?? null;
  const agentState = (agent: WorldAgent) => {
    const state = confidentialStateOf(agent.usdg);
    if (state === null) throw new Error(`${agent.handle}'s USDG account is not configured`);
    return state;
  };

  const confidentialRecipient = async (name: RecipientName = "bob"): Promise<ConfidentialRecipient> => {
    const cached = recipients.get(name);
    if (cached !== undefined) return cached;
    const party = world.recipients[name];
    const keys = testConfidentialKeys(`recipient ${name} usdg`);
    await setupConfidentialAccount(chain, { owner: party.wallet, mint: usdgMint, keys, payer: feePayer });
    const recipient = { ...party, keys };
    recipients.set(name, recipient);
    return recipient;
  };

  const signerOf = (agent: WorldAgent): KeyPairSigner => agent.signer;

  return {
    ...world,
    agentKeys,
    agentSecret,
    async setupAgent(agent = world.agent) {
      await setupAgentConfidentialAccount(chain, {
        authority: signerOf(agent),
        agent: agent.address,
        mint: usdgMint,
        keys: agentKeys(agent),
        payer: feePayer,
      });
    },
    async fundAgent(amount, agent = world.agent) {
      await depositAgentConfidential(chain, {
        authority: signerOf(agent),
        agent: agent.address,
        mint: usdgMint,
        amount,
        payer: feePayer,
      });
      await applyAgentPendingBalance(chain, {
        authority: signerOf(agent),
        agent: agent.address,
        mint: usdgMint,
        keys: agentKeys(agent),
        payer: feePayer,
      });
    },
    confidentialRecipient,
    async confidentialTransfer(transfer) {
      const agent = transfer.agent ?? world.agent;
      const to = await confidentialRecipient(transfer.to ?? "bob");
      return transferAgentConfidential(chain, {
        agentSigner: transfer.agentSigner ?? signerOf(agent),
        agent: agent.address,
        keys: transfer.keys ?? agentKeys(agent),
        mint: transfer.mint ?? usdgMint,
        recipient: to.handle,
        recipientHandle: transfer.recipientHandle,
        amount: transfer.amount,
        transferId: transfer.transferId ?? transferId(nextTransferId++),
        payer: transfer.payer ?? feePayer,
        requestHold: transfer.requestHold,
        unsafeForgedLimits: transfer.unsafeForgedLimits,
        unsafeSubstituteContexts: transfer.unsafeSubstituteContexts,
        unsafeBeforeFinalSubmission: transfer.unsafeBeforeFinalSubmission,
      });
    },
    agentAvailable: (agent = world.agent) => availableBalance(agentState(agent), agentKeys(agent)),
    async recipientPending(name = "bob") {
      const to = await confidentialRecipient(name);
      const state = confidentialStateOf(to.usdg);
      if (state === null) throw new Error(`${name}'s USDG account is not configured`);
      return decryptPendingBalance(state, to.keys);
    },
    proverState: (agent = world.agent) =>
      proverStateOf(
        policySpendStateOf(world.programId, agent.policy, cluster.getAccount(agent.policy)),
        agentKeys(agent),
        utcDayIndex(cluster.clock.unixTimestamp),
      ),
    holds: (agent = world.agent) => listAgentPendingTransactions(chain, agent.address),
  };
}

/**
 * The world most agent confidential suites start from: the agent's USDG account configured and
 * `funds` of its public USDG deposited and available, and, when named, a recipient whose account
 * is configured for confidential transfers (otherwise the first transfer to it configures it).
 */
export async function createFundedAgentWorld(input: {
  readonly funds: bigint;
  readonly recipient?: RecipientName;
  readonly world?: Parameters<typeof createPolicyWorld>[0];
}): Promise<AgentConfidentialWorld> {
  const world = await createAgentConfidentialWorld(input.world);
  await world.setupAgent();
  await world.fundAgent(input.funds);
  if (input.recipient !== undefined) await world.confidentialRecipient(input.recipient);
  return world;
}

/** That world (createFundedAgentWorld), made once for the suite's tests: `given.world`. */
export function fundedAgentSuite(input: Parameters<typeof createFundedAgentWorld>[0]): {
  readonly world: AgentConfidentialWorld;
} {
  return perSuite(async () => ({ world: await createFundedAgentWorld(input) }));
}
