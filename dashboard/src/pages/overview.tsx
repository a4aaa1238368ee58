/**
 * / : balances (the confidential one read from its on-chain ciphertexts and proven with the balance
 * proof, in this browser), the latest transfers with their amounts, and how many holds
 * wait for approval.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { BalanceEntry, Hold, Transfer } from "../api/types";
import { Amount } from "../components/amount";
import { ErrorMessage, Progress } from "../components/feedback";
import { Link } from "../components/link";
import { TitledSection } from "../components/titled-section";
import { TransferRows } from "../components/transfer-rows";
import { useAsync } from "../components/use-async";
import { type ProvenBalance, proveBalance } from "../crypto/zk";
import { base64ToBytes } from "../lib/base64";
import { useAppState } from "../state";

export function OverviewPage() {
  const balances = useAsync(() => api<{ balances: BalanceEntry[] }>("GET", "/v1/accounts/me/balances"), []);
  const recent = useAsync(
    () => api<{ transfers: Transfer[] }>("GET", "/v1/transfers", { query: { limit: 5 } }),
    [],
  );
  const pending = useAsync(() => api<{ pending: Hold[] }>("GET", "/v1/agents/transactions/pending"), []);
  return (
    <>
      <h1>Overview</h1>
      <TitledSection id="balances" title="Balances">
        <ErrorMessage error={balances.error} />
        {balances.data === null ? (
          balances.loading ? (
            <Progress label="Loading balances…" />
          ) : null
        ) : (
          <ul class="balances">
            {balances.data.balances.map((entry) => (
              <li key={`${entry.asset}-${entry.confidential}`}>
                <BalanceLine entry={entry} />
              </li>
            ))}
          </ul>
        )}
      </TitledSection>
      <TitledSection id="approvals" title="Pending approvals">
        <ErrorMessage error={pending.error} />
        {pending.data === null ? null : (
          <p>
            <Link href="/approvals">{`${pending.data.pending.length} hold${pending.data.pending.length === 1 ? "" : "s"} awaiting approval`}</Link>
          </p>
        )}
      </TitledSection>
      <TitledSection id="recent" title="Recent transfers">
        <ErrorMessage error={recent.error} />
        {recent.data === null ? null : (
          <TransferRows transfers={recent.data.transfers} caption="The five latest transfers" />
        )}
        <p>
          <Link href="/transfers">All transfers</Link>
        </p>
      </TitledSection>
    </>
  );
}

function BalanceLine(props: { entry: BalanceEntry }) {
  const { entry } = props;
  const { unlocked } = useAppState();
  const [proven, setProven] = useState<ProvenBalance | null>(null);
  const [error, setError] = useState<unknown>(null);
  const encrypted = entry.encrypted;
  useEffect(() => {
    setProven(null);
    if (unlocked === null || encrypted === null || encrypted === undefined) return;
    let live = true;
    proveBalance(
      unlocked.keys,
      base64ToBytes(encrypted.available_balance),
      base64ToBytes(encrypted.decryptable_available_balance),
    ).then(
      (result) => live && setProven(result),
      (failure: unknown) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [unlocked, encrypted]);

  const label = `${entry.asset} ${entry.confidential ? "confidential" : "public"}`;
  if (!entry.confidential) {
    return (
      <span>
        {label}:{" "}
        {entry.amount !== undefined ? `${entry.amount} ${entry.asset}` : entry.has_balance ? "held" : "none"}
      </span>
    );
  }
  if (encrypted === null || encrypted === undefined) {
    return (
      <span>
        {label}: {entry.has_balance ? "held (the API returned no ciphertexts to read it from)" : "none"}
      </span>
    );
  }
  if (unlocked === null) {
    return (
      <span>
        {label}: <Amount state={{ kind: "locked" }} />
      </span>
    );
  }
  if (error !== null) {
    return (
      <span>
        {label}: <ErrorMessage error={error} />
      </span>
    );
  }
  if (proven === null) {
    return (
      <span>
        {label}: <Progress label="Building the balance proof…" />
      </span>
    );
  }
  if (proven.kind === "undecryptable") {
    return (
      <span>
        {label}: <Amount state={{ kind: "none", why: "does not decrypt with this secret" }} />
      </span>
    );
  }
  return (
    <span>
      {label}: <Amount state={{ kind: "amount", units: proven.amount }} />{" "}
      <span class="muted">
        {proven.kind === "proven"
          ? "(proven against the on-chain balance)"
          : "(from the account's own copy; the on-chain balance is being updated)"}
      </span>
    </span>
  );
}
