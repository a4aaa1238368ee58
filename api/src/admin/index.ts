/**
 * `@cpay/api/admin`: what the operator's tools (the admin CLI in tools/) share with the service's
 * admin surface: where its listener and token are, the JSON shapes it answers with, the vault's
 * re-seal batch size. Light on purpose, since every CLI process loads it: the re-sealing itself is
 * `@cpay/api/vault-reseal`, loaded only by the command that runs it.
 */
export type { KeyView } from "../keys/manage-keys";
export { DEFAULT_RESEAL_BATCH } from "../vault/reseal-batch";
export {
  ADMIN_ENVIRONMENT_HEADER,
  ADMIN_TOKEN_FILE,
  adminPortOf,
  readAdminTokenFile,
} from "./admin-settings";
export type { ReserveSpendView } from "./reserve-spend";
