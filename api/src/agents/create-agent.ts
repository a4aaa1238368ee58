/**
 * Creating an agent under an owner (spec 4.4): the agent's account row and its sealed signer key
 * are written in one transaction, then the chain part runs (agent-on-chain.ts). If `agent_create`
 * did not land, the rows are deleted again: nothing is left behind. If it landed but the
 * confidential account setup did not, the rows stay (they describe what is on-chain) and the
 * request answers 503; retrying the same request finishes the agent (only with the same policy).
 * With an `Idempotency-Key` the agent is bound to the key as a resumable resource: a retry with the
 * same key (also after a crash of the process, once the key's lease ran out) finishes that agent
 * rather than replaying the 503.
 * Concurrent creations of one handle in this process run one after the other; across processes
 * the unique handle index lets one row in.
 *
 * Before anything is written or sent (the reserve pays every agent's rent, and no agent is ever
 * closed to return it): the owner's identity verification (`403 kyc_required`), and, for a new
 * handle, the per-owner cap `AGENTS_PER_OWNER_MAX` (`409 agent_limit_reached`). The count and the
 * insert run in one per-owner turn of this process, so concurrent requests of one process cannot
 * pass the cap together; processes behind one database can each add at most one in a race.
 *
 * Custody `self`: the same creation (the service needs the signer once, to set up the agent's
 * confidential account), then the signer's seed is handed over (self-custody.ts): returned in
 * this response only and deleted from the vault, so from then on only the agent can sign for its
 * PDA, through POST /v1/relay.
 */
import { randomBytes } from "node:crypto";
import type { AccountRow } from "@cpay/ledger";
import { isUniqueViolation } from "@cpay/ledger/database";
import { newId, nowIso } from "@cpay/ledger/ids";
import {
  encodeSpendPolicy,
  findAgentPda,
  HandleValidationError,
  normalizeAgentHandle,
  normalizeAgentName,
} from "@cpay/sdk";
import type { ZSpendPolicyInput } from "@cpay/sdk/api";
import { keyFromSeed } from "@cpay/sdk/chain";
import { address } from "@solana/kit";
import { and, count, eq } from "drizzle-orm";
import type { z } from "zod";
import { requireKyc } from "../accounts/require-kyc";
import { ApiError } from "../core/api-error";
import type { IdempotencyClaim } from "../core/idempotency-claim";
import type { ServiceContext } from "../core/service-context";
import { prepayReserve } from "../reserve/reserve-scope";
import { agentHandleText, storeSecret } from "../vault/account-secrets";
import { findAgentByHandle } from "./agent-lookup";
import {
  agentConfidentialReady,
  agentExistsOnChain,
  createAgentOnChain,
  onChainPolicyEquals,
  setupAgentAccountOnChain,
} from "./agent-on-chain";
import { agentCreationReserveBound } from "./agent-reserve-bound";
import { encodePolicyOrRefuse } from "./policy-errors";
import { runExclusively } from "./run-exclusively";
import { handOverSigner } from "./self-custody";

export interface CreateAgentInput {
  readonly name: string;
  readonly spend_policy: z.output<typeof ZSpendPolicyInput>;
  readonly custody?: "service" | "self";
}

export interface CreatedAgent {
  readonly agent: AccountRow;
  /** A self-custody agent's signer seed, base58, present in the creating response only. */
  readonly signerSecret: string | null;
}

/**
 * Creates the agent `input.name` of `owner` with its spend policy and returns the agent's account
 * row. Refusals: `403 kyc_required`, `400 invalid_request` (name), `400 invalid_policy` (a policy
 * field, `param` `spend_policy.<field>`), `409 agent_exists`, `409 agent_limit_reached`,
 * `503 chain_unavailable`. With an idempotency
 * claim, the agent's id is bound to it before anything is sent to the chain.
 */
export async function createAgent(
  service: ServiceContext,
  owner: AccountRow,
  input: CreateAgentInput,
  options: { readonly idempotency?: IdempotencyClaim | null } = {},
): Promise<CreatedAgent> {
  if (owner.type === "agent") {
    throw new ApiError("agent_key_not_allowed", "an agent cannot own agents; use its owner's key");
  }
  await requireKyc(service, owner);
  const name = agentNameOf(input.name);
  const handle = `@${agentHandleOf(owner, name)}`;
  encodePolicyOrRefuse(
    () => encodeSpendPolicy(input.spend_policy, { assets: service.assets }),
    "spend_policy.",
  );
  const custody = input.custody ?? "service";
  const resumed = options.idempotency?.resumedResourceId ?? null;
  return runExclusively(service, `agent:${handle}`, async () => {
    const existing = await findAgentByHandle(service, handle);
    const agent =
      existing === undefined
        ? await createFresh(service, owner, name, handle, input, options.idempotency ?? null)
        : existing.id === resumed
          ? await resumeBound(service, owner, existing, input)
          : await finishExisting(service, owner, existing, input);
    return { agent, signerSecret: custody === "self" ? await handOverSigner(service, agent) : null };
  });
}

function agentNameOf(name: string): string {
  try {
    return normalizeAgentName(name);
  } catch (error) {
    if (error instanceof HandleValidationError) throw new ApiError("invalid_request", error.message, "name");
    throw error;
  }
}

/** `owner/name`, checked as a whole (an agent handle is at most 64 bytes). */
function agentHandleOf(owner: AccountRow, name: string): string {
  try {
    return normalizeAgentHandle(`${agentHandleText(owner.handle)}/${name}`);
  } catch (error) {
    if (error instanceof HandleValidationError) {
      throw new ApiError("invalid_request", `the agent handle would be invalid: ${error.message}`, "name");
    }
    throw error;
  }
}

async function createFresh(
  service: ServiceContext,
  owner: AccountRow,
  name: string,
  handle: string,
  input: CreateAgentInput,
  idempotency: IdempotencyClaim | null,
): Promise<AccountRow> {
  const agent = await runExclusively(service, `agents-of:${owner.id}`, async () => {
    await requireAgentRoom(service, owner);
    // The reserve's share is reserved before the row is written: a refusal changes nothing.
    await prepayReserve(service, await agentCreationReserveBound(service));
    return insertAgent(service, owner, name, handle, input.custody ?? "service");
  });
  await idempotency?.bindResource(agent.id, { resumable: true });
  await completeOnChain(service, owner, agent, input);
  return agent;
}

/** `409 agent_limit_reached` when `owner` already has `AGENTS_PER_OWNER_MAX` agents. */
async function requireAgentRoom(service: ServiceContext, owner: AccountRow): Promise<void> {
  const { accounts } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select({ agents: count() })
      .from(accounts)
      .where(and(eq(accounts.ownerAccountId, owner.id), eq(accounts.type, "agent"))),
  );
  const max = service.config.agentsPerOwnerMax;
  if ((row?.agents ?? 0) >= max) {
    throw new ApiError(
      "agent_limit_reached",
      `an owner may have at most ${max} agents, and this one has ${row?.agents ?? 0}; nothing was created`,
    );
  }
}

/** The agent row and its signer seed, in one transaction; `409 agent_exists` if the handle is taken. */
async function insertAgent(
  service: ServiceContext,
  owner: AccountRow,
  name: string,
  handle: string,
  custody: "service" | "self",
): Promise<AccountRow> {
  const id = newId("acct");
  const signerSeed = new Uint8Array(randomBytes(32));
  const signer = keyFromSeed(id, signerSeed);
  const [pda] = await findAgentPda(
    { agentHandle: handle },
    { programAddress: address(service.chain.programId) },
  );
  const agent: AccountRow = {
    id,
    handle,
    type: "agent",
    kycStatus: owner.kycStatus,
    publicKey: pda,
    ownerAccountId: owner.id,
    agentName: name,
    agentSigner: signer.address,
    agentCustody: custody,
    policyId: newId("policy"),
    createdAt: nowIso(),
  };
  try {
    await service.db.transaction(async (tx) => {
      await tx.insert(service.db.tables.accounts).values(agent);
      await storeSecret(service, tx, id, "agent_signer_seed", signerSeed);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw agentExists(handle);
    throw error;
  }
  return agent;
}

/**
 * Runs the chain steps for a fresh row. If `agent_create` did not land, the row and its secret are
 * deleted (the agent never existed); if it did, they stay whatever happens next.
 */
async function completeOnChain(
  service: ServiceContext,
  owner: AccountRow,
  agent: AccountRow,
  input: CreateAgentInput,
): Promise<void> {
  try {
    await createAgentOnChain(service, owner, agent, input.spend_policy);
  } catch (error) {
    if (!(await agentExistsOnChain(service, agent))) await deleteAgent(service, agent);
    throw error;
  }
  await setupAgentAccountOnChain(service, agent);
}

/**
 * A row with this handle exists: a complete agent is `409 agent_exists`; an interrupted creation
 * (crash, or a failed setup) of this owner is finished when the request asks for the policy the
 * agent got on-chain (or the agent never reached the chain).
 */
async function finishExisting(
  service: ServiceContext,
  owner: AccountRow,
  agent: AccountRow,
  input: CreateAgentInput,
): Promise<AccountRow> {
  if (agent.ownerAccountId !== owner.id) throw agentExists(agent.handle);
  if ((agent.agentCustody ?? "service") !== (input.custody ?? "service")) throw agentExists(agent.handle);
  if (!(await agentExistsOnChain(service, agent))) {
    await completeOnChain(service, owner, agent, input);
    return agent;
  }
  if (await agentConfidentialReady(service, agent)) throw agentExists(agent.handle);
  if (!(await onChainPolicyEquals(service, agent, input.spend_policy))) throw agentExists(agent.handle);
  await setupAgentAccountOnChain(service, agent);
  return agent;
}

/**
 * The agent an interrupted run of this same idempotent request made (the key's fingerprint matched,
 * so the policy is the one asked for): finished wherever it stopped, complete or not.
 */
async function resumeBound(
  service: ServiceContext,
  owner: AccountRow,
  agent: AccountRow,
  input: CreateAgentInput,
): Promise<AccountRow> {
  if (!(await agentExistsOnChain(service, agent))) {
    await completeOnChain(service, owner, agent, input);
  } else if (!(await agentConfidentialReady(service, agent))) {
    await setupAgentAccountOnChain(service, agent);
  }
  return agent;
}

async function deleteAgent(service: ServiceContext, agent: AccountRow): Promise<void> {
  const { accounts, vaultSecrets } = service.db.tables;
  await service.db.transaction(async (tx) => {
    await tx.delete(vaultSecrets).where(eq(vaultSecrets.accountId, agent.id));
    await tx.delete(accounts).where(eq(accounts.id, agent.id));
  });
}

function agentExists(handle: string): ApiError {
  return new ApiError("agent_exists", `an agent ${handle} already exists`, "name");
}
