/**
 * The world the x402 suites pay in: the service, its indexer and the localnet PROCESS (the
 * facilitator and the agent reach the chain over JSON-RPC, as they would a validator), an owner with
 * a self-custody agent holding 200 public USDG (per transaction 100, HITL 50 USDG), a merchant and a
 * stranger (both service accounts, so their token accounts exist), the official facilitator, and
 * the merchant's paywalled API with the routes the suite prices.
 */
import { solanaNetworkOf } from "@cpay/sdk/x402";
import { createSelfCustodyAgent, type SelfCustodyAgent } from "../../api/support/self-custody";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../../support/api-world";
import { undoStack } from "../../support/undo-stack";
import { type OfficialFacilitator, startOfficialFacilitator } from "./official-facilitator";
import { type PaywalledApi, type PricedRoute, startPaywalledApi } from "./paywalled-api";

export interface X402World {
  readonly world: ApiWorld;
  readonly owner: WorldAccount;
  readonly merchant: WorldAccount;
  readonly stranger: WorldAccount;
  readonly agent: SelfCustodyAgent;
  /** The cluster's CAIP-2 id. */
  readonly network: `solana:${string}`;
  readonly rpcUrl: string;
  readonly facilitator: OfficialFacilitator;
  readonly paywalled: PaywalledApi;
  close(): Promise<void>;
}

export async function startX402World(input: {
  /** The paywalled API's routes, priced for the world's accounts. */
  readonly routes: (accounts: { merchant: WorldAccount; stranger: WorldAccount }) => readonly PricedRoute[];
  /** true: the agent may pay the merchant's address only (its allowed_recipients); default: anyone. */
  readonly allowMerchantOnly?: boolean;
  readonly env?: Record<string, string>;
}): Promise<X402World> {
  const cleanups = undoStack();
  try {
    const world = await startApiWorld({
      chain: "rpc",
      ...(input.env === undefined ? {} : { env: input.env }),
    });
    cleanups.add(() => world.close());
    const [owner, merchant, stranger] = await Promise.all([
      world.account("owner", { type: "business" }),
      world.account("merchant", { type: "business" }),
      world.account("stranger", { type: "business" }),
    ]);
    const agent = await createSelfCustodyAgent(world, owner, "buyer");
    if (input.allowMerchantOnly === true) {
      await owner.client.call("updateSpendPolicy", {
        params: { account_id: agent.created.account_id },
        body: { allowed_recipients: [merchant.account.publicKey] },
      });
    }
    await world.fund(await world.accountRow(agent.created.account_id), { public: usdg(200) });
    const network = solanaNetworkOf(world.chain.genesisHash);
    const rpcUrl = world.localnet?.rpcUrl() as string;
    const facilitator = await startOfficialFacilitator({ chain: world.chain, rpcUrl, network });
    cleanups.add(() => facilitator.close());
    const paywalled = await startPaywalledApi({
      facilitatorUrl: facilitator.url,
      network,
      usdgMint: world.chain.usdgMint,
      routes: input.routes({ merchant, stranger }),
    });
    cleanups.add(() => paywalled.close());
    return {
      world,
      owner,
      merchant,
      stranger,
      agent,
      network,
      rpcUrl,
      facilitator,
      paywalled,
      close: () => cleanups.undo(),
    };
  } catch (error) {
    await cleanups.undo();
    throw error;
  }
}
