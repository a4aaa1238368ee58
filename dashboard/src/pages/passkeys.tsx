/**
 * /security/passkeys: the passkeys that sign in to this account, with the one this session used
 * marked. Revoking one (after a confirmation) ends every session it started at once; revoking this
 * session's own passkey therefore signs this page out. A new passkey comes from an enrollment link
 * the operator issues, as the first one did.
 */
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { Passkey } from "../api/types";
import { ConfirmStep } from "../components/confirm";
import { DataTable } from "../components/data-table";
import { ErrorMessage, LoadFeedback } from "../components/feedback";
import { RevokeCell } from "../components/revoke-cell";
import { useAsync } from "../components/use-async";
import { useConfirmed } from "../components/use-confirmed";
import { formatTime } from "../lib/time";
import { signedOut, useAppState } from "../state";

export function PasskeysPage() {
  const { session } = useAppState();
  const list = useAsync(() => api<{ passkeys: Passkey[] }>("GET", "/v1/dashboard/passkeys"), []);
  const passkeys = list.data?.passkeys ?? [];
  const [error, setError] = useState<unknown>(null);
  const current = session?.passkey.passkey_id ?? null;

  const revoke = useConfirmed(async (passkey: Passkey) => {
    await api("DELETE", `/v1/dashboard/passkeys/${encodeURIComponent(passkey.passkey_id)}`);
    // This session's own passkey: the service ended the session with it.
    if (passkey.passkey_id === current) {
      signedOut(`You revoked ${passkey.name}, the passkey of that session: you are signed out.`);
      return;
    }
    list.reload();
  }, setError);

  return (
    <>
      <h1>Passkeys</h1>
      <p>
        Each passkey signs in to {session?.account.handle}. Revoke one you no longer hold: its sessions end at
        once. To add a passkey, ask the operator for an enrollment link.
      </p>
      <ErrorMessage error={error} />
      <LoadFeedback load={list} label="Loading passkeys…" />
      {passkeys.length > 0 ? (
        <DataTable caption="Your passkeys" columns={["Name", "Created", "Last used", "State"]}>
          {passkeys.map((passkey) => (
            <tr key={passkey.passkey_id} data-passkey-id={passkey.passkey_id}>
              <td>
                {passkey.name}
                {passkey.passkey_id === current ? " (this session)" : ""}
              </td>
              <td>{formatTime(passkey.created_at)}</td>
              <td>{formatTime(passkey.last_used_at)}</td>
              <RevokeCell revokedAt={passkey.revoked_at} onRevoke={() => revoke.ask(passkey)} />
            </tr>
          ))}
        </DataTable>
      ) : list.data !== null ? (
        <p>No passkeys.</p>
      ) : null}
      <ConfirmStep step={revoke} title="Revoke this passkey?">
        {(passkey) => (
          <p>
            {passkey.name} will no longer sign in, and every session it started ends now.
            {passkey.passkey_id === current
              ? " It is the passkey of this session: you will be signed out."
              : ""}{" "}
            This cannot be undone.
          </p>
        )}
      </ConfirmStep>
    </>
  );
}
