/** `@cpay/indexer`: the indexer engine, its chain sources and its HTTP surface. */
export type { ChainTransaction, IndexerChain, ProgramSignature, SignatureState } from "./chain/indexer-chain";
export { type IndexerChainOptions, indexerChainOver } from "./chain/indexer-chain-over";
export { type Checkpoint, readCheckpoint } from "./checkpoint";
export { type IndexerConfig, loadIndexerConfig } from "./config";
export { checkFinality } from "./finality";
export { startIndexerServer } from "./health-server";
export {
  createIndexWalk,
  type IndexerContext,
  type IndexWalk,
  type PassContext,
  type PassResult,
  runIndexPass,
} from "./index-pass";
export { type IndexerStatus, type RunningIndexer, startIndexer } from "./indexer";
export { type Leadership, type LeadershipOptions, startLeadership } from "./leadership";
