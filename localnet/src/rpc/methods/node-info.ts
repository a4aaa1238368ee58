/**
 * Node and chain-position methods: getHealth, getVersion, getGenesisHash, getSlot,
 * getBlockHeight, getEpochInfo, getEpochSchedule, getLatestBlockhash, isBlockhashValid.
 *
 * Epochs are computed from the EpochSchedule sysvar the cluster holds (with its warmup rules), so
 * they agree with what programs see through `Clock`; without the sysvar a 432,000-slot schedule
 * without warmup is assumed.
 */
import type { ClusterPort } from "../../cluster/cluster-port";
import { optionalConfig, positional, requireHash } from "../params";
import { API_VERSION, type RpcMethod, resolveContextSlot, withContext } from "../rpc-context";

/** A fixed feature-set id: the cluster's features do not change while it runs. */
const FEATURE_SET = 3_294_202_862;
const EPOCH_SCHEDULE_SYSVAR = "SysvarEpochSchedu1e111111111111111111111111";
const MINIMUM_SLOTS_PER_EPOCH = 32n;

interface EpochSchedule {
  readonly slotsPerEpoch: bigint;
  readonly leaderScheduleSlotOffset: bigint;
  readonly warmup: boolean;
  readonly firstNormalEpoch: bigint;
  readonly firstNormalSlot: bigint;
}

function readEpochSchedule(cluster: ClusterPort): EpochSchedule {
  const data = cluster.getAccount(EPOCH_SCHEDULE_SYSVAR)?.data;
  if (!data || data.length < 33) {
    return {
      slotsPerEpoch: 432_000n,
      leaderScheduleSlotOffset: 432_000n,
      warmup: false,
      firstNormalEpoch: 0n,
      firstNormalSlot: 0n,
    };
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    slotsPerEpoch: view.getBigUint64(0, true),
    leaderScheduleSlotOffset: view.getBigUint64(8, true),
    warmup: data[16] === 1,
    firstNormalEpoch: view.getBigUint64(17, true),
    firstNormalSlot: view.getBigUint64(25, true),
  };
}

/** Agave's `EpochSchedule::get_epoch_and_slot_index` and `get_slots_in_epoch`. */
function epochPosition(
  schedule: EpochSchedule,
  slot: bigint,
): { epoch: bigint; slotIndex: bigint; slotsInEpoch: bigint } {
  if (slot < schedule.firstNormalSlot) {
    let power = 1n;
    while (power < slot + MINIMUM_SLOTS_PER_EPOCH + 1n) power <<= 1n;
    const epoch = BigInt(power.toString(2).length - 1) - 5n - 1n;
    const slotsInEpoch = 1n << (epoch + 5n);
    return { epoch, slotIndex: slot - (slotsInEpoch - MINIMUM_SLOTS_PER_EPOCH), slotsInEpoch };
  }
  const normalIndex = slot - schedule.firstNormalSlot;
  return {
    epoch: schedule.firstNormalEpoch + normalIndex / schedule.slotsPerEpoch,
    slotIndex: normalIndex % schedule.slotsPerEpoch,
    slotsInEpoch: schedule.slotsPerEpoch,
  };
}

const getHealth: RpcMethod = (params) => {
  positional(params, 0, 0);
  return "ok";
};

const getVersion: RpcMethod = (params) => {
  positional(params, 0, 0);
  return { "solana-core": API_VERSION, "feature-set": FEATURE_SET };
};

const getGenesisHash: RpcMethod = (params, { cluster }) => {
  positional(params, 0, 0);
  return cluster.genesisHash;
};

const getSlot: RpcMethod = (params, { cluster }) => {
  const [config] = positional(params, 0, 1);
  return resolveContextSlot(cluster, optionalConfig(config, "config")).slot;
};

const getBlockHeight: RpcMethod = (params, { cluster }) => {
  const [config] = positional(params, 0, 1);
  const { commitment } = resolveContextSlot(cluster, optionalConfig(config, "config"));
  return cluster.getBlockHeight(commitment);
};

const getEpochInfo: RpcMethod = (params, { cluster }) => {
  const [config] = positional(params, 0, 1);
  const { commitment, slot } = resolveContextSlot(cluster, optionalConfig(config, "config"));
  const { epoch, slotIndex, slotsInEpoch } = epochPosition(readEpochSchedule(cluster), slot);
  return {
    absoluteSlot: slot,
    blockHeight: cluster.getBlockHeight(commitment),
    epoch,
    slotIndex,
    slotsInEpoch,
    // The port keeps no running count; Solana's schema allows null here.
    transactionCount: null,
  };
};

const getEpochSchedule: RpcMethod = (params, { cluster }) => {
  positional(params, 0, 0);
  return readEpochSchedule(cluster);
};

const getLatestBlockhash: RpcMethod = (params, { cluster }) => {
  const [config] = positional(params, 0, 1);
  const { slot } = resolveContextSlot(cluster, optionalConfig(config, "config"));
  const { blockhash, lastValidBlockHeight } = cluster.getLatestBlockhash();
  return withContext(slot, { blockhash, lastValidBlockHeight });
};

const isBlockhashValid: RpcMethod = (params, { cluster }) => {
  const [blockhash, config] = positional(params, 1, 2);
  const text = requireHash(blockhash, "param 0 (blockhash)");
  const { slot } = resolveContextSlot(cluster, optionalConfig(config, "config"));
  return withContext(slot, cluster.isBlockhashValid(text));
};

export const nodeInfoMethods: Readonly<Record<string, RpcMethod>> = {
  getHealth,
  getVersion,
  getGenesisHash,
  getSlot,
  getBlockHeight,
  getEpochInfo,
  getEpochSchedule,
  getLatestBlockhash,
  isBlockhashValid,
};
