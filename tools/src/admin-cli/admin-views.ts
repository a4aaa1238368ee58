/** The admin API's JSON shapes as the CLI reads them (api/src/http/admin/admin-routes.ts writes them). */

import type { KeyView, ReserveSpendView } from "@cpay/api/admin";
import type { TAccount } from "@cpay/sdk/api";

export type AccountView = TAccount;
export type { KeyView, ReserveSpendView };

export interface CreatedAccount {
  readonly account: AccountView;
  readonly confidential_secret: string;
  readonly enrollment_link: string;
  readonly enrollment_link_expires_at: string;
}

export interface EnrollmentLinkAnswer {
  readonly account: AccountView;
  readonly enrollment_link: string;
  readonly enrollment_link_expires_at: string;
}

export interface IssuedKeyAnswer {
  readonly key: KeyView;
  readonly value: string;
  readonly account: AccountView;
  readonly live_mode_available: boolean;
}

export interface KeyAnswer {
  readonly key: KeyView;
  readonly account: AccountView;
}
