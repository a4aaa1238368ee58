/** `@cpay/api/environments`: environment settings, signer settings and the start-up checks, for suites. */
export {
  builtProgramPath,
  checkConfidentialMint,
  checkProgramConfig,
  checkProgramDeployed,
  checkReserveFunded,
} from "../chain/startup-checks";
export { connectEnvironment } from "./connect-environment";
export { liveEnvironmentFromEnv, testEnvironmentFromEnv } from "./environment-settings";
export { loadSigner, parseSignerSetting } from "./signer-setting";
