/**
 * What every use case receives: the database, the chain, the vault key, the fee reserve, the log.
 * Plain data built once at start (service.ts); handlers never reach for globals.
 */

import type { Database } from "@cpay/ledger/database";
import type { AssetTable } from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import type { TransactionPartialSigner } from "@solana/kit";
import type { EnvironmentName } from "./config/environment-settings";
import type { ServiceConfig } from "./config/service-config";
import type { Logger } from "./logger";

export interface ServiceContext {
  /** Which world this is: `svc_test_` keys reach only the test one, `svc_live_` only the live one. */
  readonly environment: EnvironmentName;
  readonly config: ServiceConfig;
  readonly db: Database;
  /** This environment's cluster, through the asynchronous chain port (every chain call). */
  readonly chain: ChainPort;
  /** Pays every fee and every rent deposit: a caller never needs SOL (spec section 1, rule 3). */
  readonly feePayer: TransactionPartialSigner;
  /** The config's registrar: the only key that may register account handles on-chain. */
  readonly registrar: TransactionPartialSigner;
  /** Asset symbol -> mint (USDG). */
  readonly assets: AssetTable;
  readonly logger: Logger;
  /**
   * Milliseconds since the epoch for schedules (webhook retries) and the dashboard's expiries
   * (sessions, links, challenges); tests pass a controllable one.
   */
  readonly clock: () => number;
  /** The dashboard's origin: `DASHBOARD_ORIGIN`, else `http://localhost:<the port listened on>`. */
  readonly dashboardOrigin: () => string;
  /**
   * This cluster's explorer URL of a transaction, `{signature}` to be replaced; null when the
   * cluster has no explorer a holder can open (chain/explorer-link.ts).
   */
  readonly explorerTransactionUrl: string | null;
}
