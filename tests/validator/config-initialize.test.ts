/**
 * The agent-policy program, built by our offline toolchain, deployed through the BPF Upgradeable
 * Loader, running its first instruction. Runs on the embedded cluster by default and on a real
 * validator under `anchor test --skip-build` (see tests/support/test-cluster.ts).
 *
 * Against the started service (scripts/smoke-start.sh) the config already exists: the service
 * initialises it at start, with its fee reserve as registrar. Then the suite checks that config
 * instead — made by the upgrade authority, registrar = the localnet fee reserve, announced by a
 * ConfigInitialized event — and that nobody, the upgrade authority included, can initialise it
 * again. On a fresh cluster every check below runs exactly as before.
 */
import { readFileSync } from "node:fs";
import {
  agentPolicyProgramPath,
  findProgramDataAddress,
  LOCALNET_KEY_LABELS,
  localnetKey,
} from "@cpay/localnet/cluster";
import {
  AGENT_POLICY_ERROR__ACCOUNT_ALREADY_INITIALIZED,
  AGENT_POLICY_ERROR__NOT_UPGRADE_AUTHORITY,
  AGENT_POLICY_ERROR__WRONG_PDA,
  buildConfigInitializeInstruction,
  findConfigPda,
  findProgramDataPda,
  getConfigDecoder,
  getConfigInitializeInstruction,
  getConfigSize,
  parseAgentPolicyEvents,
} from "@cpay/sdk";
import { type Address, lamports, type Signature } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customErrorCode, sendInstructions } from "../support/send";
import { connectTestCluster, type TestCluster } from "../support/test-cluster";

describe("agent-policy program on a cluster", () => {
  let cluster: TestCluster;
  let config: Address;
  /** The config existed before this suite ran (the service initialised it at start). */
  let initializedByService: boolean;

  const configBytes = async () => {
    const account = await cluster.rpc.getAccountInfo(config, { encoding: "base64" }).send();
    return account.value === null
      ? null
      : { owner: account.value.owner, bytes: Buffer.from(account.value.data[0] ?? "", "base64") };
  };

  beforeAll(async () => {
    cluster = await connectTestCluster();
    [config] = await findConfigPda({ programAddress: cluster.programId });
    initializedByService = (await configBytes())?.owner === cluster.programId;
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it("is deployed through the upgradeable loader with the bytes of the built .so", async () => {
    const program = await cluster.rpc.getAccountInfo(cluster.programId, { encoding: "base64" }).send();
    expect(program.value?.executable).toBe(true);
    expect(program.value?.owner).toBe("BPFLoaderUpgradeab1e11111111111111111111111");
    const programData = await findProgramDataAddress(cluster.programId);
    const data = await cluster.rpc.getAccountInfo(programData, { encoding: "base64" }).send();
    const bytes = Buffer.from(data.value?.data[0] ?? "", "base64");
    const built = readFileSync(agentPolicyProgramPath());
    // ProgramData: 45 bytes of metadata, then the ELF (padded up to the max data length).
    expect(Buffer.compare(bytes.subarray(45, 45 + built.length), built)).toBe(0);
  });

  it("refuses config_initialize from anyone but the upgrade authority, even on a pre-funded PDA", async () => {
    // Given the config address was pre-funded by a griefer (its address is public)
    const before = await configBytes();
    const griefer = await cluster.fundedSigner();
    const prefund = await sendInstructions(cluster, griefer, [
      getTransferSolInstruction({ source: griefer, destination: config, amount: lamports(1_000_000n) }),
    ]);
    expect(prefund.err).toBeNull();
    // When the griefer tries to initialize the config and make itself admin
    const attempt = await sendInstructions(cluster, griefer, [
      await buildConfigInitializeInstruction({
        admin: griefer,
        registrar: griefer.address,
        programAddress: cluster.programId,
      }),
    ]);
    if (initializedByService) {
      // Then (config already made by the service) the program refuses it, and the config's
      // bytes — its admin and registrar — are exactly what they were
      expect(customErrorCode(attempt.err)).toBe(AGENT_POLICY_ERROR__ACCOUNT_ALREADY_INITIALIZED);
      const after = await configBytes();
      expect(after?.owner).toBe(cluster.programId);
      expect(Buffer.compare(after?.bytes ?? Buffer.alloc(0), before?.bytes ?? Buffer.alloc(1))).toBe(0);
      return;
    }
    // Then the program refuses it and the config still does not exist
    expect(customErrorCode(attempt.err)).toBe(AGENT_POLICY_ERROR__NOT_UPGRADE_AUTHORITY);
    expect(attempt.logs.join("\n")).toContain("Error Code: NotUpgradeAuthority. Error Number: 6009.");
    const account = await cluster.rpc.getAccountInfo(config, { encoding: "base64" }).send();
    expect(account.value?.owner).toBe("11111111111111111111111111111111");
  });

  it("refuses a config account that is not the config PDA", async () => {
    const admin = cluster.upgradeAuthority;
    const impostor = await cluster.fundedSigner(1);
    const [programData] = await findProgramDataPda({ programAddress: cluster.programId });
    const attempt = await sendInstructions(cluster, admin, [
      getConfigInitializeInstruction(
        { config: impostor.address, admin, programData, registrar: admin.address },
        { programAddress: cluster.programId },
      ),
    ]);
    expect(customErrorCode(attempt.err)).toBe(AGENT_POLICY_ERROR__WRONG_PDA);
  });

  it("creates the config for the upgrade authority and emits ConfigInitialized", async () => {
    const admin = cluster.upgradeAuthority;
    let registrar: { readonly address: Address };
    let landed: { readonly err: unknown; readonly logs: readonly string[] };
    if (initializedByService) {
      // The service made it at start, with its fee reserve (the localnet's labelled key) as
      // registrar: its first transaction is that config_initialize.
      registrar = { address: localnetKey(LOCALNET_KEY_LABELS.feeReserve).address as Address };
      landed = await firstTransactionOf(config);
    } else {
      registrar = await cluster.fundedSigner(1);
      landed = await sendInstructions(cluster, admin, [
        await buildConfigInitializeInstruction({
          admin,
          registrar: registrar.address,
          programAddress: cluster.programId,
        }),
      ]);
    }
    expect(landed.err, landed.logs.join("\n")).toBeNull();

    const account = await cluster.rpc.getAccountInfo(config, { encoding: "base64" }).send();
    expect(account.value?.owner).toBe(cluster.programId);
    const bytes = new Uint8Array(Buffer.from(account.value?.data[0] ?? "", "base64"));
    expect(bytes.length).toBe(getConfigSize());
    const decoded = getConfigDecoder().decode(bytes);
    expect(decoded).toMatchObject({ admin: admin.address, registrar: registrar.address, layoutVersion: 1 });
    const rent = await cluster.rpc.getMinimumBalanceForRentExemption(BigInt(getConfigSize())).send();
    expect(account.value?.lamports).toBeGreaterThanOrEqual(rent);

    const { events } = parseAgentPolicyEvents(landed.logs, { programAddress: cluster.programId });
    expect(events).toEqual([
      {
        name: "ConfigInitialized",
        instructionIndex: 0,
        data: { admin: admin.address, registrar: registrar.address },
      },
    ]);
  });

  it("refuses to initialize the config twice", async () => {
    const admin = cluster.upgradeAuthority;
    const again = await sendInstructions(cluster, admin, [
      await buildConfigInitializeInstruction({
        admin,
        registrar: admin.address,
        programAddress: cluster.programId,
      }),
    ]);
    expect(customErrorCode(again.err)).toBe(AGENT_POLICY_ERROR__ACCOUNT_ALREADY_INITIALIZED);
  });

  /** The oldest transaction that touched `address` (the history is newest first), as RPC reports it. */
  async function firstTransactionOf(address: Address) {
    const history = await cluster.rpc.getSignaturesForAddress(address, { commitment: "confirmed" }).send();
    const oldest = history.at(-1)?.signature;
    if (oldest === undefined) throw new Error(`no transaction touched ${address}`);
    const tx = await cluster.rpc
      .getTransaction(oldest as Signature, {
        commitment: "confirmed",
        encoding: "json",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    if (tx === null) throw new Error(`${oldest} is not available at confirmed`);
    return { err: tx.meta?.err ?? null, logs: tx.meta?.logMessages ?? [] };
  }
});
