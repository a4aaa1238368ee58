import { join } from "node:path";
import { REPO_ROOT } from "../build";

/**
 * The pipeline fixture crate (fixtures/hello-sbf): dyn Trait, a match table, checked_mul,
 * signed division, a run-time-length memcpy and sol_log_ — built by the pipeline tests.
 */
export const HELLO_CRATE = join(REPO_ROOT, "programs", "toolchain", "fixtures", "hello-sbf");

/** Instruction data `[shape][word][op][a i64 LE][b i64 LE]` (see fixtures/hello-sbf/src/lib.rs). */
export function helloData(shape: number, word: number, op: number, a: bigint, b: bigint): Uint8Array {
  const data = new Uint8Array(19);
  const view = new DataView(data.buffer);
  data.set([shape, word, op]);
  view.setBigInt64(3, a, true);
  view.setBigInt64(11, b, true);
  return data;
}
