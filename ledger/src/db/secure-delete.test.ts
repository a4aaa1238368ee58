import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./database";

describe("SQLite deletes for good", () => {
  const dir = mkdtempSync(join(tmpdir(), "cpay-secure-delete-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("Given a deleted vault row, When the file is read after close, Then its bytes are gone", async () => {
    const file = join(dir, "cpay.sqlite");
    const sealed = `sealed-seed-${"Q".repeat(40)}`;
    const db = await openDatabase(file);
    const { vaultSecrets } = db.tables;
    await db.transaction((tx) =>
      tx
        .insert(vaultSecrets)
        .values({ accountId: "acct_gone", kind: "agent_signer_seed", keyId: "k", sealed, createdAt: "t" })
        .then(() => undefined),
    );
    await db.transaction((tx) =>
      tx
        .delete(vaultSecrets)
        .where(eq(vaultSecrets.accountId, "acct_gone"))
        .then(() => undefined),
    );
    await db.close();
    expect(readFileSync(file).includes(Buffer.from(sealed))).toBe(false);
  });
});
