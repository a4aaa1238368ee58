/**
 * `@cpay/api`: the `/v1` service. `startService` runs it; the account, key and faucet functions are
 * what the admin CLI (and the test suites) use for what the spec leaves to a dashboard.
 */

export type { AccountRow, ApiKeyRow, EventRow, HoldRow, TransferRow } from "@cpay/ledger";
export type { Database } from "@cpay/ledger/database";
export { AccountInputError, createAccount, type KycStatus } from "./accounts/create-account";
export { fundTestAccount } from "./accounts/fund-test-account";
export { setKycStatus } from "./admin/set-kyc-status";
export { type CreateAgentInput, createAgent } from "./agents/create-agent";
export { type ChainConnection, type KeyFileConnection, localnetConnection } from "./chain/chain-connection";
export { sendInstructions } from "./chain/send-instructions";
export type { UsdgFaucet } from "./chain/usdg-faucet";
export { loadConfig, type ServiceConfig } from "./core/config/service-config";
export type { ServiceContext } from "./core/service-context";
export { type EnrollmentLink, issueEnrollmentLink } from "./dashboard-auth/enrollment-links";
export { type IssuedKey, issueApiKey } from "./keys/issue-key";
export { type KeyView, listApiKeys, revokeApiKey } from "./keys/manage-keys";
export { reservePayer, withReserveSpend } from "./reserve/reserve-scope";
export { type RunningService, type ServiceOptions, startService } from "./service";
