/**
 * `npm run deploy` as an operator runs it against devnet, here against a localnet process started
 * with a bare genesis (no program, no config; the faucet funded): the CLI runs as its own process
 * over JSON-RPC, deploys the program, initialises its config, and the program then answers a handle
 * registration signed by the registrar. A second run upgrades in place; a config naming another
 * registrar and a missing .so are refused before anything is sent; bytes the loader will not take
 * are refused by it, and the buffer written for them is closed again.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildHandleRegisterInstruction, findHandlePda, findProgramDataAddress } from "@cpay/sdk";
import {
  awaitLanding,
  type ChainPort,
  connectRpcChain,
  keyFromSeed,
  signTransactionToWire,
} from "@cpay/sdk/chain";
import { type Address, address, getAddressEncoder, type KeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";

const REPO = resolve(import.meta.dirname, "../..");
const CLI = join(REPO, "tools/src/deploy/main.ts");

interface KeyFile {
  readonly path: string;
  readonly address: Address;
  signer(): Promise<KeyPairSigner>;
}

let localnet: LocalnetProcess;
let chain: ChainPort;
let dir: string;

/** A fresh keypair written as a Solana CLI keypair file. */
function keyFile(name: string): KeyFile {
  const key = keyFromSeed(name, new Uint8Array(randomBytes(32)));
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify([...key.seed, ...getAddressEncoder().encode(key.address)]), {
    mode: 0o600,
  });
  return { path, address: key.address, signer: () => key.toSigner() };
}

function runCli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", CLI, "--cluster", localnet.rpcUrl(), "--ws", localnet.wsUrl(), ...args],
      { cwd: REPO, timeout: 120_000 },
      (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

async function deploySlot(programId: Address): Promise<bigint> {
  const programData = await chain.getAccount(await findProgramDataAddress(programId));
  if (programData === null) throw new Error("no ProgramData");
  return new DataView(programData.data.buffer, programData.data.byteOffset + 4, 8).getBigUint64(0, true);
}

let payer: KeyFile;
let program: KeyFile;
let registrar: KeyFile;

/** The CLI upgrading the deployed program, paid by `payer`, naming `registrar` (an address or key file). */
const upgradeNamingRegistrar = (registrarArg: string, ...more: string[]) =>
  runCli(["--payer", payer.path, "--upgrade", program.address, "--registrar", registrarArg, ...more]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cpay-deploy-"));
  localnet = await startLocalnetProcess({ env: { LOCALNET_GENESIS: "bare" } });
  payer = keyFile("payer");
  program = keyFile("program");
  registrar = keyFile("registrar");
  chain = await connectRpcChain({
    rpcUrl: localnet.rpcUrl(),
    wsUrl: localnet.wsUrl(),
    programId: program.address,
    usdgMint: program.address,
  });
  const funded = await chain.requestAirdrop(payer.address, 50_000_000_000n);
  const { blockhash } = await chain.getLatestBlockhash();
  await awaitLanding(chain, funded, blockhash);
});

afterAll(async () => {
  await chain?.close();
  await localnet?.remove();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("npm run deploy against a bare cluster", () => {
  it("Given a bare genesis, When the CLI deploys, Then the program runs with its config naming the registrar; a second run upgrades in place", async () => {
    expect(await chain.getAccount(program.address)).toBeNull();

    const first = await runCli([
      "--payer",
      payer.path,
      "--program-keypair",
      program.path,
      "--registrar",
      registrar.address,
      "--json",
    ]);
    expect(first.stderr).not.toContain("error:");
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({
      action: "deployed",
      programId: program.address,
      programData: await findProgramDataAddress(program.address),
      upgradeAuthority: payer.address,
      registrar: registrar.address,
      configInitialized: true,
    });
    expect(report.signatures.buffer.length).toBeGreaterThan(50);
    // Nothing secret is printed: no keypair file's bytes.
    for (const file of [payer.path, program.path]) {
      const seed = (JSON.parse(readFileSync(file, "utf8")) as number[]).slice(0, 8).join(",");
      expect(first.stdout + first.stderr).not.toContain(seed);
    }

    // The program answers: the registrar registers a handle.
    const registrarSigner = await registrar.signer();
    const payerSigner = await payer.signer();
    const instruction = await buildHandleRegisterInstruction({
      registrar: registrarSigner,
      payer: payerSigner,
      handle: "@deployed",
      kind: "personal",
      wallet: address(payer.address),
      programAddress: program.address,
    });
    const latest = await chain.getLatestBlockhash();
    const { signature, wire } = await signTransactionToWire({
      feePayer: payerSigner,
      instructions: [instruction],
      blockhash: latest.blockhash,
    });
    await chain.sendTransaction(wire, { preflight: true });
    const landed = await awaitLanding(chain, signature, latest.blockhash);
    expect(landed?.err).toBeNull();
    const [handle] = await findHandlePda({ handle: "deployed" }, { programAddress: program.address });
    expect((await chain.getAccount(handle))?.owner).toBe(program.address);

    const slotBefore = await deploySlot(program.address);
    const second = await upgradeNamingRegistrar(registrar.path, "--json");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      action: "upgraded",
      programId: program.address,
      configInitialized: false,
      registrar: registrar.address,
    });
    expect(await deploySlot(program.address)).toBeGreaterThan(slotBefore);
    // The handle registered before the upgrade is still the program's.
    expect((await chain.getAccount(handle))?.owner).toBe(program.address);
  });

  it("Given a config naming another registrar, When the CLI upgrades, Then it refuses before sending anything", async () => {
    const other = keyFile("other-registrar");
    const slotBefore = await deploySlot(program.address);
    const refused = await upgradeNamingRegistrar(other.address);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`names registrar ${registrar.address}, not ${other.address}`);
    expect(await deploySlot(program.address)).toBe(slotBefore);
  });

  it("Given a file that is not a program, When the CLI upgrades with it, Then the loader refuses it, the buffer's rent comes back and the program is unchanged", async () => {
    const notElf = join(dir, "not-a-program.so");
    writeFileSync(notElf, randomBytes(3000));
    const slotBefore = await deploySlot(program.address);
    const refused = await upgradeNamingRegistrar(registrar.address, "--so", notElf);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`upgrade ${program.address} was refused`);
    const buffer = /the buffer (\w+) was closed and its rent returned/.exec(refused.stderr)?.[1];
    expect(buffer).toBeDefined();
    expect(await chain.getAccount(buffer as string)).toBeNull();
    expect(await deploySlot(program.address)).toBe(slotBefore);
  });

  it("Given no .so at the path, When the CLI runs, Then it refuses naming the path", async () => {
    const missing = join(dir, "nothing-here.so");
    const refused = await runCli([
      "--payer",
      payer.path,
      "--program-keypair",
      keyFile("unused-program").path,
      "--registrar",
      registrar.address,
      "--so",
      missing,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`no program at ${missing}`);
  });
});
