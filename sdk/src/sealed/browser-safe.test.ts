import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("@cpay/sdk/sealed is browser-safe", () => {
  it("Given its source files, then none imports a node: module, Buffer or zk-sdk, and only noble packages", () => {
    const sources = readdirSync(import.meta.dirname).filter(
      (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
    );
    expect(sources.length).toBeGreaterThan(0);
    for (const name of sources) {
      const text = readFileSync(join(import.meta.dirname, name), "utf8");
      const specifiers = [...text.matchAll(/from "([^"]+)"/g)].map((match) => match[1] ?? "");
      for (const specifier of specifiers)
        expect(specifier, name).toMatch(/^(\.\/|@noble\/(curves|hashes|ciphers)\/)/);
      expect(text, name).not.toMatch(/\bBuffer\.|require\(/);
    }
  });
});
