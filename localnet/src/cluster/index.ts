/**
 * `@cpay/localnet/cluster`: the LiteSVM simulator (its synchronous ClusterPort) and inProcessChain, the chain port over it in the caller's process.
 */

export {
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  findProgramDataAddress,
  PROGRAMDATA_METADATA_SIZE,
} from "@cpay/sdk";
export {
  keyFromSeed,
  LAMPORTS_PER_SIGNATURE,
  LOCALNET_KEY_LABELS,
  type LocalnetKey,
  localnetKey,
  localnetSeed,
  PACKET_DATA_SIZE,
  partiallySignTransactionToWire,
  type SignTransactionInput,
  signTransactionToWire,
} from "@cpay/sdk/chain";
export {
  type BlockhashEntry,
  type BlockhashQueue,
  createBlockhashQueue,
  MAX_PROCESSING_AGE,
} from "./blockhash-queue";
export { DEFAULT_HISTORY_SLOTS } from "./chain-store";
export { CHAIN_STORE_FORMAT_VERSION, ChainStoreError } from "./chain-store-files";
export * from "./cluster-port";
export {
  CONFIRMATION_DEPTH,
  commitmentOfSlot,
  FINALITY_DEPTH,
  highestSlotAt,
  meetsCommitment,
} from "./commitment";
export type { ProgramDeployment } from "./deploy-program";
export {
  createEmbeddedCluster,
  type EmbeddedCluster,
  type EmbeddedClusterChainStore,
  type EmbeddedClusterKeys,
  type EmbeddedClusterOptions,
} from "./embedded-cluster";
export { inProcessChain } from "./in-process-chain";
export { agentPolicyProgramPath, DEFAULT_AGENT_POLICY_SO } from "./program-path";
export { DEFAULT_MS_PER_SLOT, type SlotClock, type SlotTick } from "./slot-clock";
export { DEFAULT_USDG_MINT_SETTINGS, USDG_DECIMALS, type UsdgMintSettings } from "./usdg-mint";
