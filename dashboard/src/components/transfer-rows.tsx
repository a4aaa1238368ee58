/** A table of transfers with their decrypted amount and memo (used by the overview and /transfers). */
import type { Transfer } from "../api/types";
import { explorerTxUrl } from "../lib/explorer";
import { formatTime } from "../lib/time";
import { useAppState } from "../state";
import { Amount, type AmountState } from "./amount";
import { DataTable } from "./data-table";
import { useOpened } from "./use-opened";

function amountState(opened: ReturnType<typeof useOpened>, transfer: Transfer, locked: boolean): AmountState {
  if (transfer.sealed_details === null || transfer.sealed_details === undefined) {
    return { kind: "none", why: "not sealed (made before sealed details)" };
  }
  if (locked) return { kind: "locked" };
  const found = opened.get(transfer.transfer_id);
  if (found === undefined) return { kind: "pending" };
  if (found.kind === "opened") return { kind: "amount", units: found.amount };
  if (found.kind === "not_yours") return { kind: "none", why: "sealed to another key" };
  return { kind: "none", why: "unreadable envelope" };
}

export function TransferRows(props: { transfers: readonly Transfer[]; caption: string }) {
  const { unlocked } = useAppState();
  const opened = useOpened(
    props.transfers.map((transfer) => ({ id: transfer.transfer_id, sealed: transfer.sealed_details })),
    unlocked?.keys ?? null,
  );
  if (props.transfers.length === 0) return <p>No transfers yet.</p>;
  return (
    <DataTable
      caption={props.caption}
      columns={["Created", "Direction", "Counterparty", "Status", "Amount", "Memo", "Transaction"]}
    >
      {props.transfers.map((transfer) => {
        const received = transfer.direction === "received";
        const found = opened.get(transfer.transfer_id);
        return (
          <tr key={transfer.transfer_id} data-transfer-id={transfer.transfer_id}>
            <td>{formatTime(transfer.created_at)}</td>
            <td>{received ? "received" : "sent"}</td>
            <td>{received ? `from ${transfer.from}` : `to ${transfer.to}`}</td>
            <td>
              <span class={`status ${transfer.status}`}>{transfer.status}</span>
              {transfer.approval !== null && transfer.status === "pending" ? " (awaiting approval)" : ""}
            </td>
            <td>
              <Amount state={amountState(opened, transfer, unlocked === null)} />
              {transfer.confidential ? "" : " (public)"}
            </td>
            <td class="memo">{found?.kind === "opened" ? (found.memo ?? "") : ""}</td>
            <td>
              <Signature signature={transfer.tx_signature} />
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** A transaction's signature, linked to the cluster's explorer when it has one. */
function Signature({ signature }: { readonly signature: string | null }) {
  if (signature === null) return <>—</>;
  const short = `${signature.slice(0, 8)}…`;
  const url = explorerTxUrl(signature);
  if (url === null) return <span title={signature}>{short}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {short}
      <span class="visually-hidden"> (opens the explorer)</span>
    </a>
  );
}
