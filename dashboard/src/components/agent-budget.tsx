/**
 * What an agent may still spend today, decrypted in this browser: the API answers with today's
 * public spend sealed to this account and the confidential spend as the chain's ciphertexts
 * (`GET /v1/agents/{account_id}/budget`); `@cpay/sdk/sealed` `remainingBudgetOf` opens them with the
 * unlocked secret (the agent's keys derive from it) and checks the confidential spend's AE copy
 * against its ciphertext. A few curve operations, so it runs on the page, not in the worker pool.
 */
import type { TAgentBudget } from "@cpay/sdk/api";
import { importAccountSecret, type RemainingBudget, remainingBudgetOf } from "@cpay/sdk/sealed";
import { useMemo } from "preact/hooks";
import { api } from "../api/client";
import type { Unlocked } from "../state";
import { Amount, type AmountState } from "./amount";
import { ErrorMessage } from "./feedback";
import { useAsync } from "./use-async";

type Reading = { readonly remaining: RemainingBudget } | { readonly error: unknown };

function read(budget: TAgentBudget, unlocked: Unlocked): Reading {
  try {
    return { remaining: remainingBudgetOf({ budget, ownerSecret: importAccountSecret(unlocked.exported) }) };
  } catch (error) {
    return { error: new Error(`Today's budget could not be read: ${(error as Error).message}.`) };
  }
}

/** The "Left today" and "Largest transfer now" rows, inside an agent's policy list (`<dl>`). */
export function AgentBudget(props: { accountId: string; unlocked: Unlocked | null }) {
  const { accountId, unlocked } = props;
  const budget = useAsync(
    () => api<TAgentBudget>("GET", `/v1/agents/${encodeURIComponent(accountId)}/budget`),
    [accountId],
  );
  const reading = useMemo(
    () => (budget.data === null || unlocked === null ? null : read(budget.data, unlocked)),
    [budget.data, unlocked],
  );
  const error = budget.error ?? (reading !== null && "error" in reading ? reading.error : null);
  if (error !== null) {
    return (
      <>
        <dt>Left today</dt>
        <dd data-budget="error">
          <ErrorMessage error={error} />
        </dd>
      </>
    );
  }
  const state = (pick: (remaining: RemainingBudget) => bigint): AmountState =>
    unlocked === null
      ? { kind: "locked" }
      : reading === null || "error" in reading
        ? { kind: "pending" }
        : { kind: "amount", units: pick(reading.remaining) };
  return (
    <>
      <dt>Left today</dt>
      <dd data-budget="daily">
        <Amount state={state((remaining) => remaining.daily)} />
        {budget.data === null ? null : <span class="muted"> ({budget.data.day}, UTC)</span>}
      </dd>
      <dt>Largest transfer now</dt>
      <dd data-budget="per-transaction">
        <Amount state={state((remaining) => remaining.perTransaction)} />
      </dd>
    </>
  );
}
