/**
 * /approvals: agents' transfers held above their threshold (holds). Each amount is opened from its
 * sealed_amount (sealed by the agent to this account, bound to the `tx_...` id) in this browser, so
 * the holder decides knowing the amount; approve and reject each ask for a confirmation.
 */
import { useEffect, useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../api/client";
import type { Hold } from "../api/types";
import { Amount, type AmountState } from "../components/amount";
import { ConfirmStep } from "../components/confirm";
import { DataTable } from "../components/data-table";
import { ActionFeedback, LoadFeedback } from "../components/feedback";
import { useAction } from "../components/use-action";
import { useAsync } from "../components/use-async";
import { useConfirmed } from "../components/use-confirmed";
import { type Opened, useOpened } from "../components/use-opened";
import { formatUsdg } from "../lib/amounts";
import { formatTime, timeLeft } from "../lib/time";
import { useAppState } from "../state";

function amountOf(item: Hold, opened: Opened | undefined, locked: boolean): AmountState {
  if (item.sealed_amount === null || item.sealed_amount === undefined) {
    return { kind: "none", why: "not stated by the agent" };
  }
  if (locked) return { kind: "locked" };
  if (opened === undefined) return { kind: "pending" };
  if (opened.kind === "opened") return { kind: "amount", units: opened.amount };
  return { kind: "none", why: opened.kind === "not_yours" ? "sealed to another key" : "unreadable envelope" };
}

/** An owner's decision on a hold, asked for a confirmation first. */
interface Decision {
  readonly item: Hold;
  readonly action: "approve" | "reject";
}

export function ApprovalsPage() {
  const { unlocked } = useAppState();
  const list = useAsync(() => api<{ pending: Hold[] }>("GET", "/v1/agents/transactions/pending"), []);
  const items = list.data?.pending ?? [];
  const opened = useOpened(
    items.map((item) => ({ id: item.transaction_id, sealed: item.sealed_amount })),
    unlocked?.keys ?? null,
  );
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  const [, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const decide = useConfirmed(async ({ item, action }: Decision) => {
    setDone(null);
    const label =
      action === "approve" ? "Approving: the transfer is being signed and submitted…" : "Rejecting…";
    await run(label, async () => {
      const result = await api<{ status: string; transaction_id: string }>(
        "POST",
        `/v1/agents/transactions/${encodeURIComponent(item.transaction_id)}/${action}`,
        { idempotencyKey: newIdempotencyKey() },
      );
      setDone(`${result.transaction_id} is ${result.status}.`);
      list.reload();
    });
  }, setError);

  return (
    <>
      <h1>Approvals</h1>
      <LoadFeedback load={list} label="Loading holds…" />
      {list.data !== null && items.length === 0 ? <p>No hold is waiting for approval.</p> : null}
      {items.length > 0 ? (
        <DataTable
          caption="Holds awaiting your decision"
          columns={["Agent", "Recipient", "Amount", "Requested", "Time left", "Decision"]}
        >
          {items.map((item) => (
            <tr key={item.transaction_id} data-transaction-id={item.transaction_id}>
              <td>{item.agent}</td>
              <td>{item.to}</td>
              <td>
                <Amount state={amountOf(item, opened.get(item.transaction_id), unlocked === null)} />
              </td>
              <td>{formatTime(item.requested_at)}</td>
              <td>{timeLeft(item.expires_at)}</td>
              <td class="actions">
                <button
                  type="button"
                  class="primary"
                  disabled={busy !== null}
                  onClick={() => decide.ask({ item, action: "approve" })}
                >
                  Approve
                </button>
                <button
                  type="button"
                  disabled={busy !== null}
                  onClick={() => decide.ask({ item, action: "reject" })}
                >
                  Reject
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <ActionFeedback busy={busy} error={error} />
      {done !== null ? (
        <p class="notice" role="status">
          {done}
        </p>
      ) : null}
      <ConfirmStep
        step={decide}
        title={({ action }) =>
          action === "approve" ? "Approve this transaction?" : "Reject this transaction?"
        }
      >
        {({ item, action }) => (
          <>
            <p>
              {item.agent} pays {item.to}
              {(() => {
                const found = opened.get(item.transaction_id);
                return found?.kind === "opened" ? ` ${formatUsdg(found.amount)}` : "";
              })()}.
            </p>
            <p>
              {action === "approve"
                ? "It is signed and submitted at once; the funds move."
                : "It is discarded; no funds move."}
            </p>
          </>
        )}
      </ConfirmStep>
    </>
  );
}
