/**
 * `npm run deploy`: the agent-policy program onto a cluster, its config initialised, the result
 * checked. Everything that can refuse is checked before the first transaction (a program already at
 * the id, an upgrade authority that is not the payer, a program too large for its ProgramData, a
 * config naming another registrar), so a refusal costs nothing. Then: upload a buffer, deploy or
 * upgrade from it, initialise the config if it is missing, and read the cluster back: the
 * ProgramData bytes must be the .so's and the config must name the registrar.
 */
import { readFileSync } from "node:fs";
import { buildConfigInitializeInstruction } from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import type { Address, KeyPairSigner } from "@solana/kit";
import { DeployError } from "./deploy-error";
import { deployFromBuffer, upgradeFromBuffer } from "./install-program";
import { landTransaction } from "./land-transaction";
import { holdsProgram, readDeployedProgram, readProgramConfig, sha256Hex } from "./program-state";
import { reclaimBuffer, uploadBuffer } from "./upload-buffer";

export type DeployTarget =
  | { readonly kind: "deploy"; readonly program: KeyPairSigner; readonly maxDataLen?: number }
  | { readonly kind: "upgrade"; readonly programId: Address };

export interface DeployInput {
  readonly chain: ChainPort;
  /** Pays, owns the buffer, is the upgrade authority and the config's admin. */
  readonly payer: KeyPairSigner;
  readonly target: DeployTarget;
  readonly registrar: Address;
  readonly soPath: string;
  readonly log?: (line: string) => void;
}

/** What was done: addresses and signatures only (nothing secret). */
export interface DeployReport {
  readonly action: "deployed" | "upgraded";
  readonly programId: Address;
  readonly programData: Address;
  readonly upgradeAuthority: Address;
  readonly soSha256: string;
  readonly soBytes: number;
  readonly maxDataLen: number;
  readonly config: Address;
  readonly registrar: Address;
  /** False when the config existed already (naming the same registrar). */
  readonly configInitialized: boolean;
  readonly buffer: Address;
  readonly signatures: {
    readonly buffer: readonly string[];
    readonly install: string;
    readonly configInitialize: string | null;
  };
}

/** Reads the .so; DeployError when it is not there (build it first). */
export function readProgramFile(soPath: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(soPath));
  } catch {
    throw new DeployError(`no program at ${soPath}: build it with npm run build:program, or pass --so`);
  }
}

/** Deploys or upgrades, initialises the config, checks the result (see the module doc). */
export async function runDeploy(input: DeployInput): Promise<DeployReport> {
  const { chain, payer, target, registrar } = input;
  const log = input.log ?? (() => {});
  const elf = readProgramFile(input.soPath);
  const programId = target.kind === "deploy" ? target.program.address : target.programId;

  const existing = await readDeployedProgram(chain, programId);
  if (target.kind === "deploy" && existing !== null) {
    throw new DeployError(
      `a program is already deployed at ${programId}: upgrade it with --upgrade ${programId}`,
    );
  }
  if (target.kind === "upgrade") {
    if (existing === null) throw new DeployError(`no program at ${programId} to upgrade`);
    if (existing.upgradeAuthority !== payer.address) {
      throw new DeployError(
        `${programId}'s upgrade authority is ${existing.upgradeAuthority ?? "none (immutable)"}, not the payer ${payer.address}`,
      );
    }
    if (elf.length > existing.maxDataLen) {
      throw new DeployError(
        `the .so is ${elf.length} bytes, more than ${programId}'s ProgramData holds (${existing.maxDataLen}): extend the program first`,
      );
    }
  }
  const configBefore = await readProgramConfig(chain, programId);
  if (configBefore !== null && configBefore.registrar !== registrar) {
    throw new DeployError(
      `the program's config ${configBefore.address} names registrar ${configBefore.registrar}, not ${registrar}; ` +
        "the registrar is set once, at initialisation",
    );
  }

  const maxDataLen =
    target.kind === "deploy" ? (target.maxDataLen ?? elf.length * 2) : (existing?.maxDataLen ?? 0);
  if (maxDataLen < elf.length)
    throw new DeployError(`--max-len ${maxDataLen} is smaller than the .so (${elf.length})`);

  log(`uploading ${elf.length} bytes (sha256 ${sha256Hex(elf)}) into a buffer`);
  const uploaded = await uploadBuffer(chain, payer, elf, (done, total) => {
    if (done === total || done % 25 === 0) log(`  ${done}/${total} writes landed`);
  });
  log(target.kind === "deploy" ? `deploying ${programId}` : `upgrading ${programId}`);
  let install: string;
  try {
    install =
      target.kind === "deploy"
        ? await deployFromBuffer(chain, {
            payer,
            program: target.program,
            buffer: uploaded.buffer,
            maxDataLen,
          })
        : await upgradeFromBuffer(chain, { payer, program: programId, buffer: uploaded.buffer });
  } catch (error) {
    const reclaimed = await reclaimBuffer(chain, payer, uploaded.buffer);
    throw new DeployError(`${error instanceof Error ? error.message : String(error)}; ${reclaimed}`);
  }

  let configInitialize: string | null = null;
  if (configBefore === null) {
    log(`initialising the config (admin ${payer.address}, registrar ${registrar})`);
    configInitialize = await landTransaction(chain, {
      feePayer: payer,
      what: "config_initialize",
      instructions: [
        await buildConfigInitializeInstruction({ admin: payer, registrar, programAddress: programId }),
      ],
    });
  }

  const deployed = await readDeployedProgram(chain, programId);
  if (deployed === null || !holdsProgram(deployed, elf)) {
    throw new DeployError(
      `the ProgramData of ${programId} does not hold the .so's bytes after the ${target.kind}`,
    );
  }
  const config = await readProgramConfig(chain, programId);
  if (config === null || config.registrar !== registrar) {
    throw new DeployError(`the program's config does not name registrar ${registrar} after the deploy`);
  }
  return {
    action: target.kind === "deploy" ? "deployed" : "upgraded",
    programId,
    programData: deployed.programData,
    upgradeAuthority: payer.address,
    soSha256: sha256Hex(elf),
    soBytes: elf.length,
    maxDataLen: deployed.maxDataLen,
    config: config.address,
    registrar: config.registrar,
    configInitialized: configInitialize !== null,
    buffer: uploaded.buffer,
    signatures: { buffer: uploaded.signatures, install, configInitialize },
  };
}
