/**
 * Looks an account up by the handle an operator types: `alice`, `@alice`, `@Alice/Bot` (agents are
 * `@owner/name`). Normalised like every handle (trim, one leading `@`, lower case).
 */

import type { AccountRow } from "@cpay/ledger";
import { HandleValidationError, normalizeHandle } from "@cpay/sdk";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { AdminError } from "./admin-error";

/** The account with this handle; AdminError `invalid_request` / `not_found` otherwise. */
export async function accountByHandle(service: ServiceContext, input: string): Promise<AccountRow> {
  let handle: string;
  try {
    handle = `@${normalizeHandle(input)}`;
  } catch (error) {
    if (error instanceof HandleValidationError) {
      throw new AdminError("invalid_request", `not a handle: ${error.message}`);
    }
    throw error;
  }
  const { accounts } = service.db.tables;
  const [row] = await service.db.read((db) => db.select().from(accounts).where(eq(accounts.handle, handle)));
  if (row === undefined) throw new AdminError("not_found", `no account ${handle}`);
  return row;
}
