/**
 * The world of the self-custody agent client suite, built and read only through the chain port, so
 * the suite runs on the embedded cluster in process and, with CPAY_TEST_CHAIN=rpc, against the
 * localnet as its own process (tests/support/test-chain.ts), as a client meets a validator.
 *
 * On a chain with 50 ms slots whose clock is set to 12:00 UTC on DAY_ZERO: the program's config
 * initialized by its upgrade authority; personal handles `alice` (owning the agent `alice/bot`:
 * DEFAULT_POLICY, its own signer key, 1,000 public USDG in the agent PDA's account, 300 of them
 * deposited into its confidential balance and applied) and `bob` (a USDG account configured for
 * confidential transfers). Setup is paid by a key of its own (`feePayer`); the cluster's fee reserve
 * (the connection's fee payer) is left to the relay. Every instruction is built with the SDK and
 * landed through the port.
 */
import type { KeyFileConnection } from "@cpay/api";
import {
  buildAgentCreateInstruction,
  buildConfigInitializeInstruction,
  buildHandleRegisterInstruction,
  USDG_DECIMALS,
} from "@cpay/sdk";
import {
  applyAgentPendingBalance,
  clusterUnixTime,
  depositAgentConfidential,
  type ProverState,
  policySpendStateOf,
  proverStateOf,
  setupAgentConfidentialAccount,
  utcDayIndex,
} from "@cpay/sdk/agent-confidential";
import { awaitLanding, type ChainPort, signTransactionToWire } from "@cpay/sdk/chain";
import {
  availableBalance,
  type ConfidentialKeyset,
  decryptPendingBalance,
  setupConfidentialAccount,
  tokenAccountOf,
} from "@cpay/sdk/confidential";
import { type Address, address, type Instruction, type KeyPairSigner } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { testConfidentialKeys } from "../../support/agent-confidential-world";
import { AGENT_FUNDS, DEFAULT_POLICY, usdg, utc } from "../../support/policy-world";
import { startTestChain, type TestChain, type TestChainMode, testChainMode } from "../../support/test-chain";
import { testSigner } from "../../support/test-keys";

export interface ClientWorldParty {
  readonly handle: string;
  readonly wallet: KeyPairSigner;
  readonly usdg: Address;
}

export interface ClientWorldAgent {
  readonly handle: string;
  readonly address: Address;
  readonly policy: Address;
  readonly signer: KeyPairSigner;
  readonly usdg: Address;
}

export interface AgentClientWorld {
  readonly mode: TestChainMode;
  /** The suite's chain port (the client's reads, the relay's submissions, the suite's assertions). */
  readonly chain: ChainPort;
  readonly programId: Address;
  readonly usdgMint: Address;
  /** Paid for the setup; not the relay's fee payer. */
  readonly feePayer: KeyPairSigner;
  /** The cluster's fee reserve (its key as the localnet publishes it): what the relay pays with. */
  readonly feeReserve: KeyPairSigner;
  readonly agent: ClientWorldAgent;
  readonly bob: ClientWorldParty & { readonly keys: ConfidentialKeyset };
  /** The confidential keys of the agent's USDG account. */
  readonly agentKeys: ConfidentialKeyset;
  lamports(account: Address): Promise<bigint>;
  /** A token account's public amount (0 when there is no account). */
  balance(tokenAccount: Address): Promise<bigint>;
  /** Bob's pending balance credit counter (confidential credits received). */
  bobCreditCounter(): Promise<bigint>;
  /** Bob's pending confidential balance, decrypted with his keys. */
  bobPending(): Promise<bigint>;
  /** The agent's available confidential balance (AE fast path, with its keys). */
  agentAvailable(): Promise<bigint>;
  /** Today's prover state (the cluster's day), rebuilt from chain with the agent's keys. */
  proverState(): Promise<ProverState>;
  close(): Promise<void>;
}

const SLOT_MS = 50;

/** Builds the world (see the module doc) on a chain of its own. */
export async function createAgentClientWorld(): Promise<AgentClientWorld> {
  const testChain = await startTestChain(testChainMode(), SLOT_MS);
  let connection: KeyFileConnection | null = null;
  try {
    connection = await testChain.connect();
    return await populate(testChain, connection);
  } catch (error) {
    await connection?.close().catch(() => undefined);
    await testChain.stop();
    throw error;
  }
}

async function populate(testChain: TestChain, connection: KeyFileConnection): Promise<AgentClientWorld> {
  const { chain, testFaucet } = connection;
  const admin = connection.programAdmin;
  if (admin === null || testFaucet === null) throw new Error("the test chain has no program admin or faucet");
  await testChain.testClock.setUnixTime(utc(0, 12));
  const programId = address(chain.programId);
  const usdgMint = address(chain.usdgMint);
  const assets = { USDG: { mint: usdgMint, decimals: USDG_DECIMALS } };
  const [feePayer, registrar] = await Promise.all([testSigner("fee payer"), testSigner("registrar")]);
  await airdrop(chain, feePayer.address, 100_000_000_000n);
  const land = (instructions: readonly Instruction[], what: string) =>
    landInstructions(chain, feePayer, instructions, what);

  await land(
    [await buildConfigInitializeInstruction({ admin, registrar: registrar.address })],
    "config_initialize",
  );
  const usdgAccountOf = async (owner: Address) =>
    (await findAssociatedTokenPda({ owner, mint: usdgMint, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS }))[0];
  const registerParty = async (handle: string): Promise<ClientWorldParty> => {
    const wallet = await testSigner(`wallet ${handle}`);
    await land(
      [
        await buildHandleRegisterInstruction({
          registrar,
          payer: feePayer,
          handle,
          kind: "personal",
          wallet: wallet.address,
        }),
      ],
      `handle_register ${handle}`,
    );
    await testFaucet.mintUsdgToOwner(wallet.address, 0n);
    return { handle, wallet, usdg: await usdgAccountOf(wallet.address) };
  };

  const alice = await registerParty("alice");
  const bobParty = await registerParty("bob");
  const signer = await testSigner("agent signer alice/bot");
  const created = await buildAgentCreateInstruction({
    owner: alice.wallet,
    ownerHandle: alice.handle,
    name: "bot",
    agentSigner: signer.address,
    policy: DEFAULT_POLICY,
    payer: feePayer,
    assets,
  });
  await land([created.instruction], `agent_create ${created.agentHandle}`);
  await testFaucet.mintUsdgToOwner(created.agent, AGENT_FUNDS);
  const agent: ClientWorldAgent = {
    handle: created.agentHandle,
    address: created.agent,
    policy: created.policy,
    signer,
    usdg: await usdgAccountOf(created.agent),
  };

  // The agent's USDG account configured for confidential transfers, 300 of it deposited and applied.
  const agentKeys = testConfidentialKeys(`agent ${agent.handle} usdg`);
  const agentInput = { authority: signer, agent: agent.address, mint: usdgMint, payer: feePayer } as const;
  await setupAgentConfidentialAccount(chain, { ...agentInput, keys: agentKeys });
  await depositAgentConfidential(chain, { ...agentInput, amount: usdg(300) });
  await applyAgentPendingBalance(chain, { ...agentInput, keys: agentKeys });
  const bobKeys = testConfidentialKeys("recipient bob usdg");
  await setupConfidentialAccount(chain, {
    owner: bobParty.wallet,
    mint: usdgMint,
    keys: bobKeys,
    payer: feePayer,
  });
  const bob = { ...bobParty, keys: bobKeys };

  const confidentialState = async (tokenAccount: Address) => {
    const state = tokenAccountOf(tokenAccount, await chain.getAccount(tokenAccount))?.confidential ?? null;
    if (state === null) throw new Error(`${tokenAccount} is not configured for confidential transfers`);
    return state;
  };

  return {
    mode: testChain.mode,
    chain,
    programId,
    usdgMint,
    feePayer,
    feeReserve: connection.feePayer,
    agent,
    bob,
    agentKeys,
    lamports: async (account) => (await chain.getAccount(account))?.lamports ?? 0n,
    async balance(tokenAccount) {
      const record = await chain.getAccount(tokenAccount);
      if (record === null) return 0n;
      // A token account's amount: base units at bytes 64..72.
      return new DataView(record.data.buffer, record.data.byteOffset).getBigUint64(64, true);
    },
    bobCreditCounter: async () => (await confidentialState(bob.usdg)).pendingBalanceCreditCounter,
    bobPending: async () => decryptPendingBalance(await confidentialState(bob.usdg), bob.keys),
    agentAvailable: async () => availableBalance(await confidentialState(agent.usdg), agentKeys),
    async proverState() {
      const [policy, now] = await Promise.all([chain.getAccount(agent.policy), clusterUnixTime(chain)]);
      return proverStateOf(policySpendStateOf(programId, agent.policy, policy), agentKeys, utcDayIndex(now));
    },
    async close() {
      await connection.close();
      await testChain.stop();
    },
  };
}

/** Signs `instructions` paid by `payer`, sends them with preflight and waits until they landed. */
async function landInstructions(
  chain: ChainPort,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  what: string,
): Promise<void> {
  const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
  const { signature, wire } = await signTransactionToWire({
    feePayer: payer,
    instructions,
    blockhash,
    lastValidBlockHeight,
  });
  await chain.sendTransaction(wire, { preflight: true });
  const status = await awaitLanding(chain, signature, blockhash, { pollMs: 20 });
  if (status === null || status.err !== null) {
    throw new Error(`${what} did not land: ${JSON.stringify(status?.err ?? "its blockhash expired")}`);
  }
}

/** Lamports from the test cluster's faucet, once they are there. */
async function airdrop(chain: ChainPort, to: Address, lamports: bigint): Promise<void> {
  const signature = await chain.requestAirdrop(to, lamports);
  const deadline = Date.now() + 30_000;
  while ((await chain.getSignatureStatus(signature)) === null) {
    if (Date.now() > deadline) throw new Error(`the airdrop to ${to} did not land within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
