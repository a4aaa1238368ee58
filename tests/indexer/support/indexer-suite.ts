/**
 * The indexer suites' start, as apiSuite makes an API suite's: an indexer world (its API world and
 * an indexer of its own) with accounts made on the API world, shared by the suite's tests.
 * `given.world` is the indexer world, `given.api` its API world.
 */
import { type SuiteAccounts, type SuiteOptions, suiteOn } from "../../support/api-suite";
import type { ApiWorld } from "../../support/api-world";
import { type IndexerWorld, startIndexerWorld } from "./indexer-world";

export type IndexerSuite<Name extends string> = {
  readonly world: IndexerWorld;
  readonly api: ApiWorld;
} & SuiteAccounts<Name>;

export function indexerSuite<const Name extends string = never, Extra extends object = object>(
  options: SuiteOptions<IndexerSuite<Name>, Name, Extra> & { readonly env?: Record<string, string> } = {},
): IndexerSuite<Name> & Extra {
  return suiteOn(
    async () => {
      const world = await startIndexerWorld(options.env === undefined ? {} : { env: options.env });
      return { world, api: world.api };
    },
    { apiOf: (started) => started.api, close: (started) => started.world.close() },
    options,
  );
}
