/**
 * The unsafe transfer hooks a suite uses to act on an honest agent transfer's own proof contexts:
 * the contexts the SDK planned are kept (not substituted) and handed to `beforeFinal` once they all
 * exist, just before the final transaction is submitted.
 */
import type { AgentTransferContexts } from "@cpay/sdk/agent-confidential";

export function beforeFinalWithPlanned(
  beforeFinal: (contexts: AgentTransferContexts) => void | Promise<void>,
): {
  readonly unsafeSubstituteContexts: (contexts: AgentTransferContexts) => AgentTransferContexts;
  readonly unsafeBeforeFinalSubmission: () => Promise<void>;
} {
  let planned: AgentTransferContexts | null = null;
  return {
    unsafeSubstituteContexts: (contexts) => {
      planned = contexts;
      return contexts;
    },
    unsafeBeforeFinalSubmission: async () => {
      if (planned === null) throw new Error("no contexts were planned");
      await beforeFinal(planned);
    },
  };
}
