/**
 * Test support for the localnet suites: a real embedded cluster served on ephemeral loopback ports,
 * kit clients pointed at it, and a funded signer. Not exported from the package.
 */
import { existsSync } from "node:fs";
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
import { agentPolicyProgramPath, createEmbeddedCluster, type EmbeddedCluster } from "../cluster/index";
import { type Localnet, startLocalnet } from "./start-localnet";

/** Whether target/deploy/agent_policy.so exists (it is built by the toolchain, not by these tests). */
export const agentPolicyBuilt = existsSync(agentPolicyProgramPath());

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
 * A fast-clock embedded cluster behind a localnet on port 0. The agent-policy program is deployed
 * when it is built, unless `programBytes` deploys another ELF under its id.
 */
export async function startTestLocalnet(options: { programBytes?: Uint8Array } = {}): Promise<TestLocalnet> {
  const cluster = await createEmbeddedCluster({
    slotMs: 50,
    programPath: agentPolicyBuilt ? undefined : null,
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
