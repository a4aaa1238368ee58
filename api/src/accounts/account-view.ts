/** An account row as the API returns it (spec 2.2). */

import type { AccountRow } from "@cpay/ledger";
import type { TAccount } from "@cpay/sdk/api";

export function accountView(row: AccountRow): TAccount {
  return {
    account_id: row.id,
    handle: row.handle,
    type: row.type as TAccount["type"],
    public_key: row.publicKey,
    kyc_status: row.kycStatus as TAccount["kyc_status"],
    created_at: row.createdAt,
  };
}
