/**
 * /transfers: sent and received transfers, filtered by status and direction, 100 a page, each
 * amount and memo opened from its sealed details in this browser.
 */
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { Page, Transfer } from "../api/types";
import { LoadFeedback } from "../components/feedback";
import { TransferRows } from "../components/transfer-rows";
import { useAsync } from "../components/use-async";

const PAGE = 100;

/** The list's filters: query parameter, label, and its choices (value, label; "" filters nothing). */
const FILTERS = [
  {
    name: "status",
    label: "Status",
    options: [
      ["", "Any"],
      ["pending", "Pending"],
      ["confirmed", "Confirmed"],
      ["failed", "Failed"],
    ],
  },
  {
    name: "direction",
    label: "Direction",
    options: [
      ["", "Sent and received"],
      ["sent", "Sent"],
      ["received", "Received"],
    ],
  },
] as const;
type FilterName = (typeof FILTERS)[number]["name"];

export function TransfersPage() {
  const [filters, setFilters] = useState<Record<FilterName, string>>({ status: "", direction: "" });
  const [offset, setOffset] = useState(0);
  const { status, direction } = filters;
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
        {FILTERS.map((filter) => (
          <Fragment key={filter.name}>
            <label for={`filter-${filter.name}`}>{filter.label}</label>
            <select
              id={`filter-${filter.name}`}
              value={filters[filter.name]}
              onChange={(event) => {
                setFilters({ ...filters, [filter.name]: event.currentTarget.value });
                // A new filter starts again from the first page.
                setOffset(0);
              }}
            >
              {filter.options.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Fragment>
        ))}
      </form>
      <LoadFeedback load={list} label="Loading transfers…" />
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
