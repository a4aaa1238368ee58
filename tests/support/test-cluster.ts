/**
 * The cluster a program suite runs against, reached the way every client reaches a cluster: Solana
 * JSON-RPC + PubSub through @solana/kit.
 *
 * - default: an embedded cluster (LiteSVM, program deployed through the upgradeable loader) served
 *   by localnet on ephemeral loopback ports, with fast slots so confirmations are real but quick;
 * - `ANCHOR_PROVIDER_URL` set (as `anchor test --skip-build` does): that validator, with
 *   `ANCHOR_WALLET` (a keypair file) as payer and program upgrade authority.
 *
 * So the same suite proves the program on LiteSVM in CI and on a real solana-test-validator.
 */
import { readFileSync } from "node:fs";
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { startLocalnet } from "@cpay/localnet/rpc";
import {
  type Address,
  address,
  airdropFactory,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  generateKeyPairSigner,
  type KeyPairSigner,
  lamports,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
} from "@solana/kit";

export const AGENT_POLICY_PROGRAM_ID = address("8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf");

export interface TestCluster {
  readonly rpc: Rpc<SolanaRpcApi>;
  readonly rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
  readonly programId: Address;
  /** Signs what only the program's upgrade authority may sign (config_initialize). */
  readonly upgradeAuthority: KeyPairSigner;
  /** The embedded cluster underneath, or null against an external validator. */
  readonly embedded: EmbeddedCluster | null;
  /** A new keypair holding `sol` SOL. */
  fundedSigner(sol?: number): Promise<KeyPairSigner>;
  close(): Promise<void>;
}

/** Slots of 40 ms: ten times the real pace, still a real processed -> confirmed transition. */
const TEST_SLOT_MS = 40;

export async function connectTestCluster(): Promise<TestCluster> {
  const external = process.env.ANCHOR_PROVIDER_URL ?? process.env.SOLANA_RPC_URL;
  return external === undefined ? connectEmbedded() : connectExternal(external);
}

async function connectEmbedded(): Promise<TestCluster> {
  const embedded = await createEmbeddedCluster({ slotMs: TEST_SLOT_MS });
  const localnet = await startLocalnet({ cluster: embedded, rpcPort: 0, wsPort: 0 });
  return withClients({
    rpcUrl: localnet.rpcUrl,
    wsUrl: localnet.wsUrl,
    upgradeAuthority: await embedded.keys.programUpgradeAuthority.toSigner(),
    embedded,
    close: async () => {
      await localnet.close();
      embedded.stop();
    },
  });
}

async function connectExternal(rpcUrl: string): Promise<TestCluster> {
  const walletPath = process.env.ANCHOR_WALLET;
  if (walletPath === undefined) {
    throw new Error(
      "ANCHOR_WALLET (the program's upgrade authority keypair file) must be set with ANCHOR_PROVIDER_URL",
    );
  }
  const secret = Uint8Array.from(JSON.parse(readFileSync(walletPath, "utf8")) as number[]);
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.port = String(Number(url.port || 8899) + 1);
  return withClients({
    rpcUrl,
    wsUrl: process.env.SOLANA_WS_URL ?? url.toString(),
    upgradeAuthority: await createKeyPairSignerFromBytes(secret),
    embedded: null,
    close: async () => {},
  });
}

function withClients(input: {
  rpcUrl: string;
  wsUrl: string;
  upgradeAuthority: KeyPairSigner;
  embedded: EmbeddedCluster | null;
  close: () => Promise<void>;
}): TestCluster {
  const rpc = createSolanaRpc(input.rpcUrl);
  const rpcSubscriptions = createSolanaRpcSubscriptions(input.wsUrl);
  const airdrop = airdropFactory({ rpc, rpcSubscriptions });
  return {
    rpc,
    rpcSubscriptions,
    programId: AGENT_POLICY_PROGRAM_ID,
    upgradeAuthority: input.upgradeAuthority,
    embedded: input.embedded,
    async fundedSigner(sol = 10) {
      const signer = await generateKeyPairSigner();
      await airdrop({
        recipientAddress: signer.address,
        lamports: lamports(BigInt(sol) * 1_000_000_000n),
        commitment: "confirmed",
      });
      return signer;
    },
    close: input.close,
  };
}
