/**
 * The agent-policy program's relayed instructions: which ones, and where the agent and the fee payer
 * may appear in each.
 */
import { AgentPolicyInstruction, identifyAgentPolicyInstruction } from "@cpay/sdk";
import { ALLOWED, feePayerOutside, type InstructionCheck, refuse } from "./verdict";

const AGENT_INSTRUCTIONS_RELAYED =
  "agent_transfer, agent_confidential_transfer, transfer_record, agent_confidential_close_contexts, agent_confidential_deposit, agent_confidential_apply";

/** Where the agent-policy program's relayed instructions name the agent and the fee payer (IDL order). */
interface AgentInstructionLayout {
  readonly accounts: readonly string[];
  /** Must be the authenticated agent's signer. */
  readonly signer: string;
  /** Must be the authenticated agent's PDA, where the instruction names one. */
  readonly agent?: string;
  /** The only accounts that may be the fee payer: rent it deposits, or rent coming back to it. */
  readonly feePayerMay: readonly string[];
  /** Rent the reserve paid comes back here: it must be the fee payer, never the agent's choice. */
  readonly feePayerMust?: readonly string[];
  /** What trailing accounts are (close_contexts' contexts); elsewhere they are extras. */
  readonly remaining?: string;
}

/** The accounts both agent spends (public and confidential) begin with, in IDL order. */
const SPEND_ACCOUNTS = [
  "agent_signer",
  "agent",
  "policy",
  "source",
  "mint",
  "destination",
  "recipient_handle",
] as const;

const AGENT_LAYOUTS: Partial<Record<AgentPolicyInstruction, AgentInstructionLayout>> = {
  [AgentPolicyInstruction.AgentTransfer]: {
    accounts: [...SPEND_ACCOUNTS, "pending", "payer", "token_program", "system_program"],
    signer: "agent_signer",
    agent: "agent",
    feePayerMay: ["payer"],
  },
  [AgentPolicyInstruction.AgentConfidentialTransfer]: {
    accounts: [
      ...SPEND_ACCOUNTS,
      "equality_proof",
      "ciphertext_validity_proof",
      "range_proof",
      "limit_equality_transaction",
      "limit_equality_daily",
      "limit_range_proof",
      "context_rent_receiver",
      "pending",
      "payer",
      "token_program",
      "zk_elgamal_proof_program",
      "system_program",
    ],
    signer: "agent_signer",
    agent: "agent",
    feePayerMay: ["context_rent_receiver", "payer"],
    feePayerMust: ["context_rent_receiver"],
  },
  [AgentPolicyInstruction.TransferRecord]: {
    accounts: ["sender", "receipt", "payer", "source", "destination", "mint", "system_program"],
    signer: "sender",
    feePayerMay: ["payer"],
  },
  // The agent moving its own public USDG into its confidential balance, and applying incoming
  // credits: its signer is the authority, so a self-custody agent does these itself; fee only.
  [AgentPolicyInstruction.AgentConfidentialDeposit]: {
    accounts: ["authority", "agent", "token_account", "mint", "token_program"],
    signer: "authority",
    agent: "agent",
    feePayerMay: [],
  },
  [AgentPolicyInstruction.AgentConfidentialApply]: {
    accounts: ["authority", "agent", "token_account", "token_program"],
    signer: "authority",
    agent: "agent",
    feePayerMay: [],
  },
  [AgentPolicyInstruction.AgentConfidentialCloseContexts]: {
    accounts: ["authority", "agent", "rent_receiver", "zk_elgamal_proof_program"],
    signer: "authority",
    agent: "agent",
    feePayerMay: ["rent_receiver"],
    feePayerMust: ["rent_receiver"],
    remaining: "context",
  },
};

/** The generated client's instruction name in the IDL's spelling: `PolicyUpdate` -> `policy_update`. */
function agentInstructionName(kind: AgentPolicyInstruction): string {
  return AgentPolicyInstruction[kind].replace(
    /[A-Z]/g,
    (c, at: number) => `${at ? "_" : ""}${c.toLowerCase()}`,
  );
}

/**
 * Agent-policy program: only the instructions in AGENT_LAYOUTS, each signed by the authenticated
 * agent's key for its own PDA, with the fee payer only where it pays rent or receives it back.
 */
export const checkAgentPolicy: InstructionCheck = (instruction, ctx) => {
  const at = `instruction ${instruction.index}`;
  let kind: AgentPolicyInstruction;
  try {
    kind = identifyAgentPolicyInstruction(instruction.data);
  } catch {
    return refuse("instruction_not_allowed", `${at} (agent-policy) has no known instruction discriminator`);
  }
  const name = agentInstructionName(kind);
  const layout = AGENT_LAYOUTS[kind];
  if (layout === undefined) {
    return refuse(
      "instruction_not_allowed",
      `${at} (agent-policy ${name}) is not relayed; agents relay ${AGENT_INSTRUCTIONS_RELAYED}`,
    );
  }
  const label = `${at} (agent-policy ${name})`;
  if (instruction.accounts.length < layout.accounts.length) {
    return refuse(
      "instruction_not_allowed",
      `${label} lists ${instruction.accounts.length} accounts; it takes ${layout.accounts.length}`,
    );
  }
  const roleOf = (position: number) => layout.accounts[position] ?? layout.remaining ?? "an extra account";
  const misuse = feePayerOutside(
    instruction,
    label,
    ctx,
    (position) => layout.feePayerMay.includes(roleOf(position)),
    roleOf,
  );
  if (misuse) return misuse;
  for (const role of layout.feePayerMust ?? []) {
    const actual = instruction.accounts[layout.accounts.indexOf(role)];
    if (actual !== ctx.feePayer) {
      return refuse(
        "fee_payer_misused",
        `${label} sends the rent the reserve paid to ${actual} (${role}); it must come back to the fee payer`,
      );
    }
  }
  const expected: [string | undefined, string][] = [
    [layout.signer, ctx.agent.signer],
    [layout.agent, ctx.agent.pda],
  ];
  for (const [role, address] of expected) {
    if (role === undefined) continue;
    const actual = instruction.accounts[layout.accounts.indexOf(role)];
    if (actual !== address) {
      return refuse(
        "not_this_agent",
        `${label} names ${actual} as ${role}; this API key's agent is ${ctx.agent.pda} (signer ${ctx.agent.signer})`,
      );
    }
  }
  return ALLOWED;
};
