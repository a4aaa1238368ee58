/**
 * Where the localnet keeps its chain store and writes its manifest: `LOCALNET_DIR`, the name the
 * service reads the manifest by too. `LOCALNET_LEDGER_DIR`, its name before the glossary
 * (docs/glossary.md) gave the store a word of its own, is still read when `LOCALNET_DIR` is unset, so
 * a script that sets it keeps its chain instead of starting a new one in the default directory.
 */

export const DEFAULT_LOCALNET_DIR = "./data/localnet";

/** The localnet directory `env` names (empty: none, the chain in memory only), or undefined. */
export function localnetDirFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.LOCALNET_DIR ?? env.LOCALNET_LEDGER_DIR;
}
