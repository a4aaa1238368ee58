/**
 * Test support for the localnet suites: a real embedded cluster served on ephemeral loopback ports,
 * kit clients pointed at it, and a funded signer. Not exported from the package.
 */
import {
  type Address,
  airdropFactory,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll } from "vitest";
import { createEmbeddedCluster, type EmbeddedCluster } from "../cluster/index";
import { type Localnet, startLocalnet } from "./start-localnet";

export interface TestLocalnet {
  readonly cluster: EmbeddedCluster;
  readonly localnet: Localnet;
  readonly rpc: Rpc<SolanaRpcApi>;
  readonly rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
  /** POSTs a raw body to the JSON-RPC endpoint; returns status and parsed JSON (or null). */
  post(body: string): Promise<{ status: number; json: unknown }>;
  close(): Promise<void>;
}

/**
 * A fast-clock embedded cluster behind a localnet on port 0, with the agent-policy program deployed
 * (the committed or freshly built .so), unless `programBytes` deploys another ELF under its id.
 */
export async function startTestLocalnet(options: { programBytes?: Uint8Array } = {}): Promise<TestLocalnet> {
  const cluster = await createEmbeddedCluster({
    slotMs: 50,
    programBytes: options.programBytes,
  });
  const localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
  return {
    cluster,
    localnet,
    rpc: createSolanaRpc(localnet.rpcUrl),
    rpcSubscriptions: createSolanaRpcSubscriptions(localnet.wsUrl),
    async post(body) {
      const response = await fetch(localnet.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await response.text();
      return { status: response.status, json: text === "" ? null : JSON.parse(text) };
    },
    async close() {
      cluster.stop();
      await localnet.close();
    },
  };
}

/**
 * The suite's test localnet: started before the calling suite's tests (beforeAll) and closed after
 * them (afterAll). The object returned stands for it from the first hook on.
 */
export function useTestLocalnet(): TestLocalnet {
  let started: TestLocalnet | undefined;
  beforeAll(async () => {
    started = await startTestLocalnet();
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestLocalnet => {
    if (started === undefined)
      throw new Error("the test localnet is started in beforeAll: use it in tests and hooks");
    return started;
  };
  return {
    get cluster() {
      return current().cluster;
    },
    get localnet() {
      return current().localnet;
    },
    get rpc() {
      return current().rpc;
    },
    get rpcSubscriptions() {
      return current().rpcSubscriptions;
    },
    post: (body) => current().post(body),
    close: () => current().close(),
  };
}

/** A new keypair funded through requestAirdrop, confirmed. */
export async function fundedSigner(net: TestLocalnet, sol = 10n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await airdropFactory({ rpc: net.rpc, rpcSubscriptions: net.rpcSubscriptions })({
    recipientAddress: signer.address,
    lamports: lamports(sol * 1_000_000_000n),
    commitment: "confirmed",
  });
  return signer;
}

/** A signed v0 transaction of `instructions`, paid by `payer`, on the latest blockhash. */
export async function signedTransaction(
  net: TestLocalnet,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
) {
  const { value: blockhash } = await net.rpc.getLatestBlockhash().send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (message) => setTransactionMessageFeePayerSigner(payer, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
      (message) => appendTransactionMessageInstructions(instructions, message),
    ),
  );
  assertIsTransactionWithBlockhashLifetime(signed);
  return signed;
}

/** A System transfer of `amount` lamports from `payer` to `to`. */
export function transfer(payer: KeyPairSigner, to: Address, amount: bigint): Instruction {
  return getTransferSolInstruction({ source: payer, destination: to, amount: lamports(amount) });
}
