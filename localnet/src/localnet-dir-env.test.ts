import { describe, expect, it } from "vitest";
import { localnetDirFromEnv } from "./localnet-dir-env";

describe("localnetDirFromEnv", () => {
  it("Given LOCALNET_DIR, When read, Then it names the directory whatever the former name says", () => {
    expect(localnetDirFromEnv({ LOCALNET_DIR: "/a", LOCALNET_LEDGER_DIR: "/b" })).toBe("/a");
  });

  it("Given only the former LOCALNET_LEDGER_DIR, When read, Then it still names the directory", () => {
    expect(localnetDirFromEnv({ LOCALNET_LEDGER_DIR: "/b" })).toBe("/b");
  });

  it("Given LOCALNET_DIR empty (in memory), When read, Then the empty value is kept, not replaced", () => {
    expect(localnetDirFromEnv({ LOCALNET_DIR: "", LOCALNET_LEDGER_DIR: "/b" })).toBe("");
  });

  it("Given neither, When read, Then it is undefined (the caller's default applies)", () => {
    expect(localnetDirFromEnv({})).toBeUndefined();
  });
});
