#!/usr/bin/env -S npx tsx
/**
 * `npm run deploy -- --cluster <rpc url> [--ws <url>] --payer <keypair file>
 *   (--program-keypair <file> | --upgrade <program id>) --registrar <pubkey or keypair file>
 *   [--so <path>] [--max-len <bytes>] [--json]`
 *
 * Deploys target/deploy/agent_policy.so (or `--so`) through the BPF Upgradeable Loader over
 * JSON-RPC, or upgrades a deployed program in place, initialises the program's config (admin: the
 * payer, which is the upgrade authority; registrar: `--registrar`) and checks the result
 * (run-deploy.ts). `--ws` defaults to the RPC URL with ws(s) and the port + 1, as the Solana CLI
 * derives it. Prints addresses and signatures, never a key. Progress goes to stderr.
 *
 * Exit codes: 0 done, 1 refused or failed (the message says why), 2 bad usage.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { connectRpcChain } from "@cpay/sdk/chain";
import { address } from "@solana/kit";
import { DeployError } from "./deploy-error";
import { addressOrKeypairFile, readKeypairFile } from "./keypair-file";
import { type DeployReport, readProgramFile, runDeploy } from "./run-deploy";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const DEFAULT_SO = resolve(REPO_ROOT, "target/deploy/agent_policy.so");
const USAGE =
  "usage: npm run deploy -- --cluster <rpc url> [--ws <url>] --payer <keypair file> " +
  "(--program-keypair <file> | --upgrade <program id>) --registrar <pubkey or keypair file> " +
  "[--so <path>] [--max-len <bytes>] [--json]";

class UsageError extends Error {}

/** The PubSub URL the Solana CLI derives from an RPC URL: ws(s), port + 1 when a port is given. */
export function defaultWsUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (url.port !== "") url.port = String(Number(url.port) + 1);
  return url.toString();
}

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(argv);
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const log = (line: string) => process.stderr.write(`[deploy] ${line}\n`);
  try {
    const soPath = resolve(values.so ?? DEFAULT_SO);
    readProgramFile(soPath);
    const payer = await readKeypairFile(values.payer, "--payer");
    const registrar = await addressOrKeypairFile(values.registrar, "--registrar");
    const target =
      values.upgrade !== undefined
        ? { kind: "upgrade" as const, programId: address(values.upgrade) }
        : {
            kind: "deploy" as const,
            program: await readKeypairFile(values.programKeypair, "--program-keypair"),
            ...(values.maxLen === undefined ? {} : { maxDataLen: values.maxLen }),
          };
    const programId = target.kind === "upgrade" ? target.programId : target.program.address;
    const chain = await connectRpcChain({
      rpcUrl: values.cluster,
      wsUrl: values.ws ?? defaultWsUrl(values.cluster),
      programId,
      // The deploy reads no token state; the port only needs a value here.
      usdgMint: programId,
    }).catch((error: unknown) => {
      throw new DeployError(
        `cannot reach the RPC: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    try {
      const report = await runDeploy({ chain, payer, target, registrar, soPath, log });
      console.log(values.json ? JSON.stringify(report, null, 2) : describe(report));
      return 0;
    } finally {
      await chain.close();
    }
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      cluster: { type: "string" },
      ws: { type: "string" },
      payer: { type: "string" },
      "program-keypair": { type: "string" },
      upgrade: { type: "string" },
      registrar: { type: "string" },
      so: { type: "string" },
      "max-len": { type: "string" },
      json: { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  });
  const required = (name: "cluster" | "payer" | "registrar") => {
    const value = values[name];
    if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
    return value;
  };
  const programKeypair = values["program-keypair"];
  if ((programKeypair === undefined) === (values.upgrade === undefined)) {
    throw new UsageError("give exactly one of --program-keypair (a first deploy) and --upgrade <program id>");
  }
  if (values.upgrade !== undefined && !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(values.upgrade)) {
    throw new UsageError(`--upgrade must be a program id (base58), got ${values.upgrade}`);
  }
  const maxLenText = values["max-len"];
  if (maxLenText !== undefined && !/^[1-9]\d{0,8}$/.test(maxLenText)) {
    throw new UsageError(`--max-len must be a number of bytes, got ${maxLenText}`);
  }
  return {
    cluster: required("cluster"),
    ws: values.ws,
    payer: required("payer"),
    registrar: required("registrar"),
    programKeypair: programKeypair ?? "",
    upgrade: values.upgrade,
    so: values.so,
    maxLen: maxLenText === undefined ? undefined : Number(maxLenText),
    json: values.json === true,
  };
}

function describe(report: DeployReport): string {
  return [
    `${report.action} the agent-policy program`,
    `  program id:         ${report.programId}`,
    `  programdata:        ${report.programData} (${report.maxDataLen} bytes of room)`,
    `  .so:                ${report.soBytes} bytes, sha256 ${report.soSha256} (the ProgramData holds exactly it)`,
    `  upgrade authority:  ${report.upgradeAuthority}`,
    `  config:             ${report.config} (registrar ${report.registrar}${report.configInitialized ? ", initialised now" : ", already initialised"})`,
    `  buffer (closed):    ${report.buffer}`,
    `  signatures:`,
    `    buffer create:    ${report.signatures.buffer[0]}`,
    `    buffer writes:    ${report.signatures.buffer.length - 1} transactions`,
    `    ${report.action === "deployed" ? "deploy" : "upgrade"}:${report.action === "deployed" ? "           " : "          "}${report.signatures.install}`,
    ...(report.signatures.configInitialize === null
      ? []
      : [`    config_initialize: ${report.signatures.configInitialize}`]),
  ].join("\n");
}

process.exitCode = await main(process.argv.slice(2));
