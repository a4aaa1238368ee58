/**
 * /transfers: sent and received transfers, filtered by status and direction, 100 a page, each
 * amount and memo opened from its sealed details in this browser.
 */
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { Page, Transfer } from "../api/types";
import { ErrorMessage, Progress } from "../components/feedback";
import { TransferRows } from "../components/transfer-rows";
import { useAsync } from "../components/use-async";

const PAGE = 100;

export function TransfersPage() {
  const [status, setStatus] = useState("");
  const [direction, setDirection] = useState("");
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    () =>
      api<Page & { transfers: Transfer[] }>("GET", "/v1/transfers", {
        query: { status, direction, limit: PAGE, offset },
      }),
    [status, direction, offset],
  );
  return (
    <>
      <h1>Transfers</h1>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label for="filter-status">Status</label>
        <select
          id="filter-status"
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value);
            setOffset(0);
          }}
        >
          <option value="">Any</option>
          <option value="pending">Pending</option>
          <option value="confirmed">Confirmed</option>
          <option value="failed">Failed</option>
        </select>
        <label for="filter-direction">Direction</label>
        <select
          id="filter-direction"
          value={direction}
          onChange={(event) => {
            setDirection(event.currentTarget.value);
            setOffset(0);
          }}
        >
          <option value="">Sent and received</option>
          <option value="sent">Sent</option>
          <option value="received">Received</option>
        </select>
      </form>
      <ErrorMessage error={list.error} />
      {list.loading && list.data === null ? <Progress label="Loading transfers…" /> : null}
      {list.data === null ? null : (
        <>
          <TransferRows
            transfers={list.data.transfers}
            caption={`Transfers ${list.data.total === 0 ? 0 : offset + 1}–${offset + list.data.transfers.length} of ${list.data.total}`}
          />
          <div class="actions">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Previous page
            </button>
            <button type="button" disabled={!list.data.has_more} onClick={() => setOffset(offset + PAGE)}>
              Next page
            </button>
          </div>
        </>
      )}
    </>
  );
}
