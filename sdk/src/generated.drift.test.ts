/**
 * The committed client in `sdk/src/generated/` and `idl/agent_policy.layout.tsv` must be exactly
 * what the generator renders from the IDL today (STYLE rules 5 and 12): a hand edit, a changed IDL
 * without regeneration, or a Codama upgrade that renders differently all fail here.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATED_DIR, renderClient } from "../scripts/generate-client";
import { LAYOUT_TABLE_PATH, readIdl, renderLayoutTable } from "../scripts/idl-layout";

function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe("generated client drift", () => {
  let fresh: string;

  beforeAll(async () => {
    fresh = mkdtempSync(join(tmpdir(), "agent-policy-drift-"));
    await renderClient(readIdl(), fresh);
  });
  afterAll(() => {
    rmSync(fresh, { recursive: true, force: true });
  });

  it("has the same files as a fresh rendering of the IDL", () => {
    // Given a fresh rendering / When listing both trees / Then they hold the same paths
    expect(listFiles(GENERATED_DIR)).toEqual(listFiles(fresh));
  });

  it("has byte-identical contents (run `npm run generate:client` after changing the IDL)", () => {
    const drifted = listFiles(fresh).filter(
      (file) => readFileSync(join(fresh, file), "utf8") !== readFileSync(join(GENERATED_DIR, file), "utf8"),
    );
    expect(drifted).toEqual([]);
  });

  it("has the layout table the Rust tests read in sync with the IDL", () => {
    expect(readFileSync(LAYOUT_TABLE_PATH, "utf8")).toBe(renderLayoutTable(readIdl()));
  });
});
