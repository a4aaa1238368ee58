/**
 * Which transfers an account sees (get and list): those it sent, and those paid to its wallet (or,
 * for an agent, its PDA) once `confirmed` — a recipient never learns of a transfer that is still
 * pending, held for approval or failed, because nothing reached it. An owner still does not see its
 * agents' transfers as its own (they are the agent's), unless one paid the owner.
 */

import type { AccountRow } from "@cpay/ledger";
import type { TTransferDetail } from "@cpay/sdk/api";
import { and, eq, or, type SQL } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";

/** The SQL condition "`account` may see this transfer", narrowed to one `direction` when given. */
export function visibleTransfers(
  service: ServiceContext,
  account: AccountRow,
  direction?: TTransferDetail["direction"],
): SQL {
  const { transfers } = service.db.tables;
  const sent = eq(transfers.accountId, account.id);
  const received = and(
    eq(transfers.recipientAddress, account.publicKey),
    eq(transfers.status, "confirmed"),
  ) as SQL;
  if (direction === "sent") return sent;
  if (direction === "received") return received;
  return or(sent, received) as SQL;
}
