import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@cpay/api/config";
import { loadSigner, parseSignerSetting } from "@cpay/api/environments";
import {
  address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getPublicKeyFromAddress,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  verifySignature,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, describe, expect, it } from "vitest";
import { writeExecSigner, writeKeypairFile } from "../support/exec-signer";

describe("signer settings", () => {
  const dir = mkdtempSync(join(tmpdir(), "cpay-signer-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const keypair = writeKeypairFile(dir, "reserve");

  /** A transaction paid by `payer`, its message bytes as a signer receives them. */
  const transactionOf = (payer: string) =>
    compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (message) => setTransactionMessageFeePayer(address(payer), message),
        (message) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: "11111111111111111111111111111111" as Blockhash, lastValidBlockHeight: 10n },
            message,
          ),
        (message) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({
              source: { address: address(payer) } as never,
              destination: address(payer),
              amount: 1n,
            }),
            message,
          ),
      ),
    );

  const signsFor = async (setting: string) => {
    const signer = await loadSigner("TEST_SIGNER", parseSignerSetting("TEST_SIGNER", setting));
    expect(signer.address).toBe(keypair.address);
    const transaction = transactionOf(signer.address);
    const [dictionary] = await signer.signTransactions([transaction as never]);
    const signature = dictionary?.[signer.address];
    expect(signature).toBeDefined();
    const key = await getPublicKeyFromAddress(signer.address);
    return verifySignature(key, signature as never, transaction.messageBytes);
  };

  it("signs with a key file of mode 0600", async () => {
    expect(await signsFor(`file:${keypair.path}`)).toBe(true);
  });

  it("refuses a key file its group or others may read, naming the setting", async () => {
    const readable = writeKeypairFile(dir, "readable");
    chmodSync(readable.path, 0o644);
    const setting = parseSignerSetting("LIVE_FEE_RESERVE_SIGNER", `file:${readable.path}`);
    await expect(loadSigner("LIVE_FEE_RESERVE_SIGNER", setting)).rejects.toThrow(
      /LIVE_FEE_RESERVE_SIGNER: .* chmod 600/,
    );
  });

  it("signs through a signing program without the service holding the key", async () => {
    expect(await signsFor(`exec:${writeExecSigner(dir, keypair)}`)).toBe(true);
  });

  it("refuses a signing program's signature that does not verify", async () => {
    const bad = `exec:${writeExecSigner(dir, keypair, { misbehave: true })}`;
    await expect(signsFor(bad)).rejects.toThrow(/did not answer a valid signature/);
  });

  it("refuses a signing program that prints no address, without repeating what it printed", async () => {
    const program = join(dir, "noisy.sh");
    writeFileSync(program, "#!/bin/sh\necho secret-material-not-an-address\n", { mode: 0o700 });
    const attempt = loadSigner(
      "LIVE_REGISTRAR_SIGNER",
      parseSignerSetting("LIVE_REGISTRAR_SIGNER", `exec:${program}`),
    );
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.not.toThrow(/secret-material/);
  });

  it.each(["keypair.json", "kms:/x", "file:"])("refuses the setting %s", (value) => {
    expect(() => parseSignerSetting("LIVE_FEE_RESERVE_SIGNER", value)).toThrow(/LIVE_FEE_RESERVE_SIGNER/);
  });
});
