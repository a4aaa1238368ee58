/** A table's last cell for something revocable (an API key, a passkey): when it was revoked, else the button. */
import { formatTime } from "../lib/time";

export function RevokeCell(props: { readonly revokedAt: string | null; readonly onRevoke: () => void }) {
  return (
    <td>
      {props.revokedAt !== null ? (
        `revoked ${formatTime(props.revokedAt)}`
      ) : (
        <button type="button" onClick={props.onRevoke}>
          Revoke
        </button>
      )}
    </td>
  );
}
