/**
 * @cpay/toolchain: the offline SBF build (cargo -> IR lowering -> llc -> our linker -> .so) and
 * the pieces tests and other packages use directly.
 */
export {
  type BuildOptions,
  type BuildResult,
  buildProgram,
  DEFAULT_CRATE,
  DEPLOY_DIR,
  REPO_ROOT,
} from "./build";
export { type BuildRecord, readBuildRecord } from "./build-record";
export { LinkError, type LinkResult, linkProgram, SYSCALLS } from "./link/index";
export { type LoweringReport, lowerIr } from "./lower-ir";
export { detectToolchain, type Toolchain } from "./toolchain";
export { type VerifyOutcome, verifyBuild } from "./verify";
