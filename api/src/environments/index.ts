/** `@cpay/api/environments`: environment settings, signer settings and the start-up checks, for suites. */
export {
  checkConfidentialMint,
  checkProgramConfig,
  checkProgramDeployed,
  checkReserveFunded,
} from "../chain/startup-checks";
export { builtProgramPath } from "../core/config/built-program-path";
export { liveEnvironmentFromEnv, testEnvironmentFromEnv } from "../core/config/environment-settings";
export { parseSignerSetting } from "../core/config/signer-setting";
export { connectEnvironment } from "./connect-environment";
export { loadSigner } from "./load-signer";
