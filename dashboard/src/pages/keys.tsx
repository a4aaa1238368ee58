/**
 * /developer/keys: the account's API keys. Create one with a name (the key is shown once), list them
 * with last use and usage, revoke with a confirmation. The total each key transferred is an ElGamal
 * running total that only this account's secret reads: it is decrypted here, one key after another,
 * after the list has painted (a discrete log each, ~0.3 s).
 */
import { useEffect, useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../api/client";
import type { ApiKeyView } from "../api/types";
import { ActionForm } from "../components/action-form";
import { Amount, type AmountState } from "../components/amount";
import { ConfirmStep } from "../components/confirm";
import { DataTable } from "../components/data-table";
import { ErrorMessage, LoadFeedback } from "../components/feedback";
import { RevokeCell } from "../components/revoke-cell";
import { ShownOnce } from "../components/shown-once";
import { TextField } from "../components/text-field";
import { TitledSection } from "../components/titled-section";
import { useAction } from "../components/use-action";
import { useAsync } from "../components/use-async";
import { useConfirmed } from "../components/use-confirmed";
import { decryptEncryptedTotal } from "../crypto/zk";
import { base64ToBytes } from "../lib/base64";
import { formatTime } from "../lib/time";
import { type Unlocked, useAppState } from "../state";

/** Decrypts each key's total in turn, yielding between keys; results by key id. */
function useTotals(
  keys: readonly ApiKeyView[],
  unlocked: Unlocked | null,
): ReadonlyMap<string, bigint | null> {
  const [totals, setTotals] = useState<ReadonlyMap<string, bigint | null>>(new Map());
  const signature = keys.map((key) => `${key.id}:${key.transferred_total_encrypted ?? ""}`).join(",");
  useEffect(() => {
    setTotals(new Map());
    if (unlocked === null) return;
    let live = true;
    (async () => {
      const found = new Map<string, bigint | null>();
      for (const key of keys) {
        const blob = key.transferred_total_encrypted;
        let total: bigint | null;
        if (blob === null) total = 0n;
        else {
          try {
            total = await decryptEncryptedTotal(unlocked.keys, base64ToBytes(blob));
          } catch {
            total = null;
          }
        }
        if (!live) return;
        found.set(key.id, total);
        setTotals(new Map(found));
        await new Promise((done) => setTimeout(done, 0));
      }
    })();
    return () => {
      live = false;
    };
  }, [signature, unlocked]);
  return totals;
}

export function KeysPage() {
  const { unlocked } = useAppState();
  const list = useAsync(() => api<{ keys: ApiKeyView[] }>("GET", "/v1/keys"), []);
  const keys = list.data?.keys ?? [];
  const totals = useTotals(keys, unlocked);
  const [name, setName] = useState("");
  const { busy, error, setError, run } = useAction();
  const [created, setCreated] = useState<string | null>(null);

  const create = async () => {
    setError(null);
    setCreated(null);
    if (name.trim() === "") {
      setError(new Error("Give the key a name."));
      return;
    }
    await run("Creating the key…", async () => {
      const result = await api<{ api_key: string }>("POST", "/v1/keys", {
        body: { name: name.trim() },
        idempotencyKey: newIdempotencyKey(),
      });
      setCreated(result.api_key);
      setName("");
      list.reload();
    });
  };

  const revoke = useConfirmed(async (key: ApiKeyView) => {
    await api("DELETE", `/v1/keys/${encodeURIComponent(key.id)}`);
    list.reload();
  }, setError);

  const totalState = (key: ApiKeyView): AmountState => {
    if (unlocked === null) return { kind: "locked" };
    if (!totals.has(key.id)) return { kind: "pending" };
    const total = totals.get(key.id);
    return total === null || total === undefined
      ? { kind: "none", why: "does not decrypt with this secret" }
      : { kind: "amount", units: total };
  };

  return (
    <>
      <h1>API keys</h1>
      <TitledSection id="create-key" title="Create a key" class="panel">
        <ActionForm class="stack" onSubmit={create}>
          <TextField id="key-name" label="Key name" maxLength={64} value={name} onValue={setName} />
          <button type="submit" class="primary" disabled={busy !== null}>
            Create key
          </button>
        </ActionForm>
        {created !== null ? (
          <ShownOnce value={created}>Your new key (the service keeps only its hash)</ShownOnce>
        ) : null}
      </TitledSection>
      <ErrorMessage error={error} />
      <LoadFeedback load={list} label="Loading keys…" />
      {keys.length > 0 ? (
        <DataTable
          caption="Your API keys"
          columns={[
            "Name",
            "Key",
            "Created",
            "Last used",
            "Requests",
            "Transfers",
            "Total transferred",
            "State",
          ]}
        >
          {keys.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.display}</code>
              </td>
              <td>{formatTime(key.created_at)}</td>
              <td>{formatTime(key.last_used_at)}</td>
              <td>{key.request_count}</td>
              <td>{key.transfer_count}</td>
              <td>
                <Amount state={totalState(key)} />
              </td>
              <RevokeCell revokedAt={key.revoked_at} onRevoke={() => revoke.ask(key)} />
            </tr>
          ))}
        </DataTable>
      ) : list.data !== null ? (
        <p>No keys yet.</p>
      ) : null}
      <ConfirmStep step={revoke} title="Revoke this key?">
        {(key) => (
          <p>
            {key.name} ({key.display}) stops working with its next request. This cannot be undone.
          </p>
        )}
      </ConfirmStep>
    </>
  );
}
