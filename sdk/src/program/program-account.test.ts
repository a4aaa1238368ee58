import { getAddressDecoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { AGENT_POLICY_PROGRAM_ADDRESS, CONFIG_DISCRIMINATOR, getConfigDecoder } from "../generated";
import { decodeProgramAccount, isProgramAccount } from "./program-account";

const DISCRIMINATOR = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
const OWNER = AGENT_POLICY_PROGRAM_ADDRESS;

/** An account of OWNER: the discriminator, then zeros up to `size`. */
function account(size = 16, owner: string = OWNER) {
  const data = new Uint8Array(size);
  data.set(DISCRIMINATOR);
  return { owner, data };
}

describe("the checks before an account's bytes are read", () => {
  it("Given the program's account of the size with the discriminator, Then it passes", () => {
    expect(isProgramAccount(account(), OWNER, DISCRIMINATOR, 16)).toBe(true);
  });

  it.each([
    ["no account", null],
    ["another owner", account(16, "11111111111111111111111111111111")],
    ["a byte short", account(15)],
    ["a byte long", account(17)],
    ["another discriminator", { owner: OWNER, data: new Uint8Array(16) }],
  ])("Given %s, Then it is refused", (_, candidate) => {
    expect(isProgramAccount(candidate, OWNER, DISCRIMINATOR, 16)).toBe(false);
  });

  it("Given a Config's bytes, Then decodeProgramAccount decodes them, and refuses them under another owner", () => {
    const decoder = getConfigDecoder();
    const data = new Uint8Array(decoder.fixedSize);
    data.set(CONFIG_DISCRIMINATOR);
    data.fill(7, 8, 40);
    const decoded = decodeProgramAccount({ owner: OWNER, data }, OWNER, CONFIG_DISCRIMINATOR, decoder);
    expect(decoded).toEqual(decoder.decode(data));
    expect(decoded?.admin).toBe(getAddressDecoder().decode(new Uint8Array(32).fill(7)));
    expect(decodeProgramAccount({ owner: "x", data }, OWNER, CONFIG_DISCRIMINATOR, decoder)).toBeNull();
  });
});
