import { createHash } from "node:crypto";
import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/sdk";
import {
  AccountRole,
  address,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedCluster, type EmbeddedCluster } from "./embedded-cluster";
import { agentPolicyProgramPath } from "./program-path";
import { buildWire, fundedSigner, memoInstruction, memoProgramElf } from "./test-helpers";

const SYSTEM_PROGRAM = address("11111111111111111111111111111111");

describe("deploying through the BPF Upgradeable Loader (SPL Memo as the program)", () => {
  const elf = memoProgramElf();
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 0, programBytes: elf });
  });
  afterAll(() => cluster.stop());

  it("leaves a loader-owned program account pointing at ProgramData that holds the ELF", () => {
    // Given the cluster deployed the program at start-up
    const deployment = cluster.deployment;
    expect(deployment?.programId).toBe(cluster.programId);

    // Then the program account is the loader's, executable, and names its ProgramData
    const program = cluster.getAccount(cluster.programId);
    expect(program?.owner).toBe(BPF_LOADER_UPGRADEABLE_ADDRESS);
    expect(program?.executable).toBe(true);
    const programData = deployment?.programData ?? "";
    expect(program?.data).toEqual(
      new Uint8Array([2, 0, 0, 0, ...getAddressEncoder().encode(address(programData))]),
    );

    // And ProgramData: tag 3, the deploy slot, the upgrade authority, then exactly the ELF
    const data = cluster.getAccount(programData)?.data ?? new Uint8Array();
    expect(cluster.getAccount(programData)?.owner).toBe(BPF_LOADER_UPGRADEABLE_ADDRESS);
    expect([...data.subarray(0, 4)]).toEqual([3, 0, 0, 0]);
    expect(new DataView(data.buffer, data.byteOffset).getBigUint64(4, true)).toBe(cluster.clock.genesisSlot);
    expect(data[12]).toBe(1);
    expect(data.subarray(13, 45)).toEqual(
      new Uint8Array(getAddressEncoder().encode(cluster.keys.programUpgradeAuthority.address)),
    );
    expect(data.subarray(45)).toEqual(elf);
  });

  it("did it in real transactions: buffer, writes, deploy; the buffer is closed", () => {
    const deployment = cluster.deployment;
    const signatures = deployment?.signatures ?? [];
    // 2304 bytes in 1232-byte packets: create buffer + 3 writes + deploy
    expect(signatures).toHaveLength(5);
    const deploy = cluster.getTransaction(signatures[4] ?? "");
    expect(deploy?.logs).toContain(`Deployed program ${cluster.programId}`);
    expect(deploy?.accountKeys).toContain(BPF_LOADER_UPGRADEABLE_ADDRESS);
    expect(deployment?.deployComputeUnits).toBe(2670n); // last measured 2670 (CreateAccount + DeployWithMaxDataLen)
    expect(cluster.getAccount(cluster.keys.programUpgradeAuthority.address)).not.toBeNull();
    const buffer = cluster.getTransaction(signatures[0] ?? "")?.accountKeys[1] ?? "";
    expect(cluster.getAccount(buffer)).toBeNull();
  });

  it("runs an instruction of the deployed program", async () => {
    // Given a funded client
    const payer = await fundedSigner(cluster);

    // When it invokes the program
    const signature = cluster.sendTransaction(
      await buildWire({
        payer,
        blockhash: cluster.getLatestBlockhash().blockhash,
        instructions: [memoInstruction(address(cluster.programId), "hello")],
      }),
    );

    // Then the program ran
    const record = cluster.getTransaction(signature);
    expect(record?.err).toBeNull();
    expect(record?.logs).toContain("Program log: Memo (len 5)");
    expect(record?.computeUnitsConsumed).toBeLessThan(1000n);
  });
});

// The lead's program, once `target/deploy/agent_policy.so` exists (the toolchain builds it).
const agentPolicySo = agentPolicyProgramPath();
describe(`agent-policy from ${agentPolicySo}`, () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 0 });
  });
  afterAll(() => cluster.stop());

  const discriminator = (preimage: string) => createHash("sha256").update(preimage).digest().subarray(0, 8);

  async function configInitialize(
    admin: KeyPairSigner,
  ): Promise<{ config: string; instruction: Instruction }> {
    const programAddress = address(cluster.programId);
    const [config] = await getProgramDerivedAddress({ programAddress, seeds: ["config"] });
    const registrar = getAddressEncoder().encode(address(cluster.feeReserve));
    return {
      config,
      instruction: {
        programAddress,
        accounts: [
          { address: config, role: AccountRole.WRITABLE },
          { address: admin.address, role: AccountRole.WRITABLE_SIGNER },
          { address: address(cluster.deployment?.programData ?? ""), role: AccountRole.READONLY },
          { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
        ],
        data: new Uint8Array([...discriminator("global:config_initialize"), ...registrar]),
      },
    };
  }

  it("refuses config_initialize from anyone but the upgrade authority (Custom 6009)", async () => {
    const stranger = await fundedSigner(cluster);
    const { instruction } = await configInitialize(stranger);
    const blockhash = cluster.getLatestBlockhash().blockhash;
    const signature = cluster.sendTransaction(
      await buildWire({ payer: stranger, blockhash, instructions: [instruction] }),
    );
    expect(cluster.getTransaction(signature)?.err).toEqual({ InstructionError: [0, { Custom: 6009 }] });
  });

  it("answers config_initialize from the upgrade authority", async () => {
    // Given the upgrade authority as a kit signer
    const admin = await cluster.keys.programUpgradeAuthority.toSigner();
    const { config, instruction } = await configInitialize(admin);

    // When it initializes the config
    const blockhash = cluster.getLatestBlockhash().blockhash;
    const signature = cluster.sendTransaction(
      await buildWire({ payer: admin, blockhash, instructions: [instruction] }),
    );

    // Then the config PDA exists, owned by the program, with the Config discriminator
    const record = cluster.getTransaction(signature);
    expect(record?.err, record?.logs.join("\n")).toBeNull();
    const account = cluster.getAccount(config);
    expect(account?.owner).toBe(cluster.programId);
    expect(account?.data.subarray(0, 8)).toEqual(new Uint8Array(discriminator("account:Config")));
    expect(record?.logs.some((line) => line.startsWith("Program data: "))).toBe(true);
    expect(cluster.getProgramAccounts(cluster.programId).map((a) => a.address)).toEqual([config]);
  });
});
