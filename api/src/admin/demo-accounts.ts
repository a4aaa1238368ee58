/**
 * The accounts `bash scripts/start.sh` sets up so the API can be tried at once: `@demo` (business,
 * KYC verified, funded from the test faucet with 1,000 USDG confidential and 100 public) and the
 * recipient `@merchant` (business, verified). Each is created only if absent; a fresh `svc_test_`
 * key for `@demo` is issued on every start, because keys are shown once and the previous one is
 * not recoverable.
 */

import type { AccountRow } from "@cpay/ledger";
import { nowIso } from "@cpay/ledger/ids";
import { eq } from "drizzle-orm";
import { createAccount } from "../accounts/create-account";
import { fundTestAccount } from "../accounts/fund-test-account";
import type { UsdgFaucet } from "../chain/usdg-faucet";
import type { ServiceContext } from "../core/service-context";
import { type EnrollmentLink, issueEnrollmentLink } from "../dashboard-auth/enrollment-links";
import { type IssuedKey, issueApiKey } from "../keys/issue-key";

const USDG = 1_000_000n;
export const DEMO_FUNDING = { confidential: 1_000n * USDG, public: 100n * USDG } as const;

export interface DemoAccounts {
  readonly demo: AccountRow;
  readonly merchant: AccountRow;
  /** The new key for `@demo`. */
  readonly key: IssuedKey;
  /** A one-time link that registers a passkey for `@demo` in the dashboard. */
  readonly enrollment: EnrollmentLink;
  /** `@demo`'s confidential secret when it was created by this call (null: it existed already). */
  readonly demoSecret: string | null;
}

/** Creates what is missing, funds a new `@demo`, issues its key. */
export async function ensureDemoAccounts(service: ServiceContext, faucet: UsdgFaucet): Promise<DemoAccounts> {
  const existingDemo = await accountWithHandle(service, "@demo");
  let demo: AccountRow;
  let demoSecret: string | null = null;
  if (existingDemo === null) {
    const created = await createAccount(service, { handle: "demo", type: "business", kycStatus: "verified" });
    await fundTestAccount(service, faucet, created.account, DEMO_FUNDING);
    demo = created.account;
    demoSecret = created.confidentialSecret;
  } else {
    demo = existingDemo;
  }
  const merchant =
    (await accountWithHandle(service, "@merchant")) ??
    (await createAccount(service, { handle: "merchant", type: "business", kycStatus: "verified" })).account;
  const key = await issueApiKey(service, {
    accountId: demo.id,
    name: `start ${nowIso()}`,
    environment: "test",
  });
  // A human's way in: the dashboard, through a one-time link (each start spends the previous one)
  const enrollment = await issueEnrollmentLink(service, demo);
  return { demo, merchant, key, demoSecret, enrollment };
}

async function accountWithHandle(service: ServiceContext, handle: string): Promise<AccountRow | null> {
  const { accounts } = service.db.tables;
  const [row] = await service.db.read((db) => db.select().from(accounts).where(eq(accounts.handle, handle)));
  return row ?? null;
}
