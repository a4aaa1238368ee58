import { describe, expect, it } from "vitest";
import { generateMasterKeyHex, parseMasterKey } from "../core/vault-crypto";
import { requestFingerprint } from "./idempotency-fingerprint";

describe("requestFingerprint", () => {
  const key = parseMasterKey(generateMasterKeyHex());
  const transfer = (body: unknown) =>
    requestFingerprint(key, { method: "post", route: "createTransfer", params: undefined, body });

  it("Given the same request with its keys in another order, Then the fingerprint is the same", () => {
    expect(transfer({ to: "@bob", amount: "1" })).toBe(transfer({ amount: "1", to: "@bob" }));
  });

  it("Given another amount, route or path parameter, Then the fingerprint differs", () => {
    const base = transfer({ to: "@bob", amount: "1" });
    expect(transfer({ to: "@bob", amount: "2" })).not.toBe(base);
    expect(
      requestFingerprint(key, {
        method: "post",
        route: "relayTransactions",
        params: undefined,
        body: { to: "@bob", amount: "1" },
      }),
    ).not.toBe(base);
    const approve = (id: string) =>
      requestFingerprint(key, {
        method: "post",
        route: "approveTransaction",
        params: { transaction_id: id },
        body: null,
      });
    expect(approve("tx_a")).not.toBe(approve("tx_b"));
  });

  it("Given another master key, Then the same request has another fingerprint (it is keyed)", () => {
    const other = parseMasterKey(generateMasterKeyHex());
    const body = { to: "@bob", amount: "1" };
    expect(
      requestFingerprint(other, { method: "post", route: "createTransfer", params: undefined, body }),
    ).not.toBe(transfer(body));
  });
});
