import { type AccountRow, createAccount, fundTestAccount, issueApiKey, type RunningService } from "@cpay/api";
import type { ChainPort } from "@cpay/sdk/chain";
import { eq } from "drizzle-orm";
import { TEST_POLICY } from "../api/support/agents";
import { type FaultProxy, startFaultProxy } from "./fault-proxy";
import { type IndexerBeside, startIndexerBeside } from "./indexer-beside";
import { connectToLocalnet } from "./localnet-chain";
import { type LocalnetProcess, startLocalnetProcess } from "./localnet-process";
import { startLocalnetService } from "./localnet-service";
import { perSuite } from "./shared-set-up";
import { undoStack } from "./undo-stack";

export interface FaultWorldAccount {
  readonly account: AccountRow;
  readonly key: string;
  /** The account's confidential secret (SDK export format), as handed to its holder. */
  readonly confidentialSecret: string;
}

/** USDG (base units) minted to a holder: its public and confidential parts. */
interface Funds {
  readonly public?: bigint;
  readonly confidential?: bigint;
}

export interface FaultWorld {
  readonly localnet: LocalnetProcess;
  readonly proxy: FaultProxy;
  readonly service: RunningService;
  /** The service's chain port (through the proxy). */
  readonly chain: ChainPort;
  /** A chain port straight to the localnet, for the suite's own checks (no faults). */
  readonly direct: ChainPort;
  account(handle: string, funds?: Funds): Promise<FaultWorldAccount>;
  /**
   * An agent `name` of `owner` (per transaction 100, daily 250, HITL 50 USDG), funded, with its own
   * agent-scoped key. Its confidential keys are derived from its owner's secret and handle.
   */
  agent(
    owner: FaultWorldAccount,
    name: string,
    funds?: Funds,
  ): Promise<Omit<FaultWorldAccount, "confidentialSecret">>;
  close(): Promise<void>;
}

export async function startFaultWorld(
  options: {
    readonly slotMs?: number;
    readonly seed?: number;
    /** Service settings over the world's own (a bench raises its limits out of the way). */
    readonly env?: Readonly<Record<string, string>>;
  } = {},
): Promise<FaultWorld> {
  const cleanups = undoStack();
  const close = () => cleanups.undo();
  try {
    const localnet = await startLocalnetProcess({ slotMs: options.slotMs ?? 50 });
    cleanups.add(() => localnet.remove());
    const proxy = await startFaultProxy(
      { rpcUrl: localnet.rpcUrl(), wsUrl: localnet.wsUrl() },
      { seed: options.seed ?? 1 },
    );
    cleanups.add(() => proxy.close());
    const portTo = (rpcUrl: string, wsUrl: string) =>
      connectToLocalnet(localnet, { rpcUrl, wsUrl, onWarning: () => undefined });
    const direct = await portTo(localnet.rpcUrl(), localnet.wsUrl());
    cleanups.add(() => direct.close());
    const {
      service,
      faucet,
      close: closeService,
    } = await startLocalnetService(localnet, {
      env: { RATE_LIMIT_PER_MINUTE: "100000", ...options.env },
      urls: { rpcUrl: proxy.rpcUrl, wsUrl: proxy.wsUrl },
    });
    cleanups.add(closeService);
    const indexer: IndexerBeside = await startIndexerBeside({
      service,
      openChain: () => portTo(proxy.rpcUrl, proxy.wsUrl),
    });
    cleanups.add(() => indexer.close());
    const fund = (account: AccountRow, funds: Funds) =>
      fundTestAccount(service.context, faucet, account, {
        public: funds.public ?? 0n,
        confidential: funds.confidential ?? 0n,
      });
    /** The test key every holder of this world gets (its value). */
    const issueKey = async (account: AccountRow) =>
      (await issueApiKey(service.context, { accountId: account.id, name: "faults", environment: "test" }))
        .value;
    return {
      localnet,
      proxy,
      service,
      chain: service.context.chain,
      direct,
      async account(handle, funds = {}) {
        const { account, confidentialSecret } = await createAccount(service.context, {
          handle,
          type: "business",
          kycStatus: "verified",
        });
        if ((funds.public ?? 0n) > 0n || (funds.confidential ?? 0n) > 0n) await fund(account, funds);
        return { account, key: await issueKey(account), confidentialSecret };
      },
      async agent(owner, name, funds = {}) {
        // Through the API, as an owner creates one (the reserve pays its rent inside the request).
        const response = await fetch(`${service.url}/v1/accounts/me/agents`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
          body: JSON.stringify({ name, spend_policy: TEST_POLICY }),
        });
        const created = (await response.json()) as { account_id?: string };
        if (response.status !== 201 || created.account_id === undefined) {
          throw new Error(`creating the agent answered ${response.status}: ${JSON.stringify(created)}`);
        }
        const { db } = service.context;
        const [account] = await db.read((q) =>
          q
            .select()
            .from(db.tables.accounts)
            .where(eq(db.tables.accounts.id, created.account_id as string)),
        );
        if (account === undefined) throw new Error(`no account row ${created.account_id}`);
        await fund(account, funds);
        return { account, key: await issueKey(account) };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One fault world for the suite's tests (shared-set-up.ts), with what `setUp` makes in it; closed
 * after the last test, or at once when `setUp` fails.
 */
export function faultSuite<Extra extends object>(
  options: Parameters<typeof startFaultWorld>[0],
  setUp: (world: FaultWorld) => Promise<Extra>,
): { readonly world: FaultWorld } & Extra {
  return perSuite(
    async () => {
      const world = await startFaultWorld(options);
      try {
        return { world, ...(await setUp(world)) };
      } catch (error) {
        await world.close();
        throw error;
      }
    },
    ({ world }) => world.close(),
  );
}
