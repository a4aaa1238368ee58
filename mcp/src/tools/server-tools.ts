/** Which of the shared definitions each server serves. */
import {
  getAccountTool,
  getBalancesTool,
  getSpendPolicyTool,
  listAgentsTool,
  updateSpendPolicyTool,
} from "./account-tools";
import { balanceTool, getPolicyTool, remainingBudgetTool } from "./agent-budget-tools";
import { approveTransactionTool, listPendingApprovalsTool, rejectTransactionTool } from "./approval-tools";
import { fetchPaidTool } from "./fetch-paid-tool";
import { payTool, previewPaymentTool } from "./pay-tools";
import { getTransferTool, listTransfersTool } from "./transfer-tools";

/** What the local server (a self-custody agent's own process) serves. */
export const LOCAL_SERVER_TOOLS = [
  payTool,
  previewPaymentTool,
  remainingBudgetTool,
  balanceTool,
  getTransferTool,
  listTransfersTool,
  getPolicyTool,
  fetchPaidTool,
] as const;

/** What the service's `/mcp` door serves (owner-only tools refuse an agent's key). */
export const REMOTE_SERVER_TOOLS = [
  payTool,
  getTransferTool,
  listTransfersTool,
  getAccountTool,
  getBalancesTool,
  listAgentsTool,
  getSpendPolicyTool,
  updateSpendPolicyTool,
  listPendingApprovalsTool,
  approveTransactionTool,
  rejectTransactionTool,
] as const;
