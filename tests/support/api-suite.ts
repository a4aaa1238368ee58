/**
 * The start most `/v1` suites share, in one line: an API world with its accounts (each funded as
 * asked, then whatever `setUp` adds) made before the suite's first test and closed after its last
 * (shared-set-up.ts). `given.world` is the world, `given.alice` the account made for "alice".
 * `suiteOn` is the same over any world that holds an API world (the indexer suites' own).
 */
import { beforeAll } from "vitest";
import { type ApiWorld, type ApiWorldOptions, startApiWorld, type WorldAccount } from "./api-world";
import { perSuite } from "./shared-set-up";

/** An account to make: its handle, or the handle with a type or KYC status other than the default. */
export type SuiteAccount = string | ({ readonly handle: string } & Parameters<ApiWorld["account"]>[1]);

type Funds = { readonly confidential?: bigint; readonly public?: bigint };

export type SuiteAccounts<Name extends string> = { readonly [K in Name]: WorldAccount };

export interface SuiteOptions<Given, Name extends string, Extra extends object> {
  /** The accounts, by handle (`["alice", "bob"]`), or by the name the suite reads them as. */
  readonly accounts?: readonly Name[] | { readonly [K in Name]: SuiteAccount };
  /** USDG base units minted to an account after all are made. */
  readonly funds?: { readonly [K in Name]?: Funds };
  /** More the tests share (agents, receivers), made after the accounts and read as `given.<key>`. */
  readonly setUp?: (given: Given) => Promise<Extra>;
}

export type ApiSuite<Name extends string> = { readonly world: ApiWorld } & SuiteAccounts<Name>;

export function apiSuite<const Name extends string = never, Extra extends object = object>(
  options: SuiteOptions<ApiSuite<Name>, Name, Extra> & { readonly world?: ApiWorldOptions } = {},
): ApiSuite<Name> & Extra {
  return suiteOn(
    async () => ({ world: await startApiWorld(options.world) }),
    { apiOf: (started) => started.world, close: (started) => started.world.close() },
    options,
  );
}

/**
 * A suite over the world `start` makes (closed by `close`, also when its accounts could not be
 * made), with the accounts made on its API world (`apiOf`).
 */
export function suiteOn<Started extends object, const Name extends string, Extra extends object>(
  start: () => Promise<Started>,
  world: {
    readonly apiOf: (started: Started) => ApiWorld;
    readonly close: (started: Started) => Promise<void>;
  },
  options: SuiteOptions<Started & SuiteAccounts<Name>, Name, Extra>,
): Started & SuiteAccounts<Name> & Extra {
  const given = perSuite(async () => {
    const started = await start();
    try {
      const api = world.apiOf(started);
      const accounts = await makeAccounts(api, options.accounts ?? []);
      const funds: { readonly [name: string]: Funds | undefined } = options.funds ?? {};
      for (const [name, amounts] of Object.entries(funds)) {
        const account = accounts.get(name);
        if (account === undefined) throw new Error(`no account ${name} to fund`);
        if (amounts !== undefined) await api.fund(account.account, amounts);
      }
      return { ...started, ...Object.fromEntries(accounts) } as Started & SuiteAccounts<Name> & Extra;
    } catch (error) {
      await world.close(started);
      throw error;
    }
  }, world.close);
  // A hook of its own, after the world's: `given` already holds the world and accounts, so the
  // suite's own helpers that read them work inside `setUp` too.
  const { setUp } = options;
  if (setUp !== undefined) {
    beforeAll(async () => {
      Object.assign(given, await setUp(given));
    });
  }
  return given;
}

/** The accounts by the names the suite reads them as, made together (each its own wallet and handle). */
async function makeAccounts(
  world: ApiWorld,
  accounts: readonly string[] | { readonly [name: string]: SuiteAccount },
): Promise<Map<string, WorldAccount>> {
  const entries: [string, SuiteAccount][] = Array.isArray(accounts)
    ? accounts.map((handle) => [handle, handle])
    : Object.entries(accounts);
  return new Map(
    await Promise.all(
      entries.map(
        async ([name, spec]) =>
          [
            name,
            typeof spec === "string" ? await world.account(spec) : await world.account(spec.handle, spec),
          ] as const,
      ),
    ),
  );
}
