/**
 * Each start-up check against the localnet as its own process, passing on what the localnet set up
 * and refusing, with a message naming what to do, what a misconfigured cluster would have: other
 * program bytes, a program config missing or naming another registrar, a mint without confidential
 * transfers, a reserve below its minimum. The mint is created by a KMS-style signing program
 * (`exec:`), so that provider is shown landing a real transaction too.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type KeyFileConnection, localnetConnection } from "@cpay/api";
import {
  builtProgramPath,
  checkConfidentialMint,
  checkProgramConfig,
  checkProgramDeployed,
  checkReserveFunded,
  loadSigner,
} from "@cpay/api/environments";
import { buildConfigInitializeInstruction } from "@cpay/sdk";
import { address, generateKeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { getInitializeMint2Instruction, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeExecSigner } from "../support/exec-signer";
import { localnetManifestOf } from "../support/localnet-chain";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";
import { sendAs } from "../support/send-as";

/** What the localnet deployed: the same build the check compares with (AGENT_POLICY_SO or the committed one). */
const BUILT = builtProgramPath();
const where = "the live environment (localnet)";

describe("start-up checks against a localnet process", () => {
  let localnet: LocalnetProcess;
  let connection: KeyFileConnection;
  const dir = mkdtempSync(join(tmpdir(), "cpay-checks-"));

  beforeAll(async () => {
    localnet = await startLocalnetProcess();
    connection = await localnetConnection(localnet.manifestPath);
  }, 120_000);
  afterAll(async () => {
    await connection?.close();
    await localnet?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it("accepts the deployed program, refuses other bytes unless allowed, and a program that is not there", async () => {
    const { chain } = connection;
    const check = { where, programId: chain.programId, allowedSha256s: [] };
    await expect(checkProgramDeployed(chain, check)).resolves.toBeUndefined();
    const other = join(dir, "other.so");
    writeFileSync(other, Buffer.concat([readFileSync(BUILT), Buffer.from("another build")]));
    await expect(checkProgramDeployed(chain, { ...check, builtProgramPath: other })).rejects.toThrow(
      /the live environment \(localnet\): the program .* holds other bytes .* PROGRAM_SHA256S/,
    );
    // The digest the refusal names (the program's bytes without the trailing zero padding) is the one
    // an operator allows.
    const refusal = await checkProgramDeployed(chain, { ...check, builtProgramPath: other }).catch(
      (error: Error) => error.message,
    );
    const deployed = /holds other bytes \(sha256 ([0-9a-f]{64})\)/.exec(String(refusal))?.[1] ?? "";
    const built = readFileSync(BUILT);
    let end = built.length;
    while (end > 0 && built[end - 1] === 0) end -= 1;
    expect(deployed).toBe(createHash("sha256").update(built.subarray(0, end)).digest("hex"));
    await expect(
      checkProgramDeployed(chain, { ...check, builtProgramPath: other, allowedSha256s: [deployed] }),
    ).resolves.toBeUndefined();
    const nowhere = (await generateKeyPairSigner()).address;
    await expect(checkProgramDeployed(chain, { ...check, programId: nowhere })).rejects.toThrow(
      /is not deployed through the upgradeable loader/,
    );
  });

  it("wants the program config, naming the expected registrar and no other", async () => {
    const { chain, programAdmin } = connection;
    const registrar = (await generateKeyPairSigner()).address;
    const check = { where, programId: chain.programId, registrar };
    await expect(checkProgramConfig(chain, check)).rejects.toThrow(/config .* is not initialised/);
    if (programAdmin === null) throw new Error("the localnet's manifest names its upgrade authority");
    await sendAs(chain, programAdmin, [
      await buildConfigInitializeInstruction({
        admin: programAdmin,
        registrar,
        programAddress: address(chain.programId),
      }),
    ]);
    await expect(checkProgramConfig(chain, check)).resolves.toBeUndefined();
    const other = (await generateKeyPairSigner()).address;
    await expect(checkProgramConfig(chain, { ...check, registrar: other })).rejects.toThrow(
      new RegExp(`names the registrar ${registrar}, but .*REGISTRAR_SIGNER is ${other}`),
    );
  });

  it("wants a Token-2022 mint with confidential transfers, not a plain one", async () => {
    const { chain } = connection;
    await expect(checkConfidentialMint(chain, { where, mint: chain.usdgMint })).resolves.toBeUndefined();
    // The fee reserve's key behind a signing program: the payer of the plain mint below.
    const manifest = localnetManifestOf(localnet);
    const keypairPath = join(localnet.dir, manifest.keypairs.feeReserve);
    const program = writeExecSigner(dir, { path: keypairPath, address: connection.feePayer.address });
    const payer = await loadSigner("LIVE_FEE_RESERVE_SIGNER", { provider: "exec", path: program });
    expect(payer.address).toBe(connection.feePayer.address);
    const mint = await generateKeyPairSigner();
    await sendAs(chain, payer, [
      getCreateAccountInstruction({
        payer,
        newAccount: mint,
        lamports: await chain.minimumBalanceForRentExemption(82),
        space: 82,
        programAddress: TOKEN_2022_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: payer.address }),
    ]);
    expect((await chain.getAccount(mint.address))?.owner).toBe(TOKEN_2022_PROGRAM_ADDRESS);
    await expect(checkConfidentialMint(chain, { where, mint: mint.address })).rejects.toThrow(
      /the live environment \(localnet\): the USDG mint is unusable: .* no ConfidentialTransferMint extension/,
    );
  });

  it("wants the reserve to hold RESERVE_MIN_LAMPORTS", async () => {
    const { chain, feePayer } = connection;
    const balance = (await chain.getAccount(feePayer.address))?.lamports ?? 0n;
    expect(balance).toBeGreaterThan(0n);
    await expect(
      checkReserveFunded(chain, { where, reserve: feePayer.address, minLamports: balance }),
    ).resolves.toBeUndefined();
    // A minimum above what it holds, and a reserve nobody funded.
    await expect(
      checkReserveFunded(chain, { where, reserve: feePayer.address, minLamports: balance + 1_000_000_000n }),
    ).rejects.toThrow(/holds \d+ lamports, less than RESERVE_MIN_LAMPORTS .* fund it first/);
    const unfunded = (await generateKeyPairSigner()).address;
    await expect(checkReserveFunded(chain, { where, reserve: unfunded, minLamports: 1n })).rejects.toThrow(
      new RegExp(`the fee reserve ${unfunded} holds 0 lamports`),
    );
  });
});
