import { address } from "@solana/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recipientAllowed, withinActiveHours } from "./spend-rules";

const DESTINATION = address("11111111111111111111111111111112");
const OWNER = address("SysvarC1ock11111111111111111111111111111111");
const to = (handle: string | null) => ({ handle, destination: DESTINATION, destinationOwner: OWNER });

describe("recipientAllowed", () => {
  it("Given no patterns, Then anyone is allowed", () => {
    expect(recipientAllowed([], to(null))).toBe(true);
  });

  it("Given a name, Then only that handle matches", () => {
    const patterns = [{ __kind: "Name", fields: ["alice"] }] as const;
    expect(recipientAllowed(patterns, to("alice"))).toBe(true);
    expect(recipientAllowed(patterns, to("bob"))).toBe(false);
    expect(recipientAllowed(patterns, to(null))).toBe(false);
  });

  it("Given a suffix, Then subdomains match but not the suffix itself nor a longer word", () => {
    const patterns = [{ __kind: "Suffix", fields: ["acme"] }] as const;
    expect(recipientAllowed(patterns, to("pay.acme"))).toBe(true);
    expect(recipientAllowed(patterns, to("x.pay.acme"))).toBe(true);
    expect(recipientAllowed(patterns, to("acme"))).toBe(false);
    expect(recipientAllowed(patterns, to("xacme"))).toBe(false);
    expect(recipientAllowed(patterns, to(".acme"))).toBe(false);
  });

  it("Given an address, Then the destination or its owner matches, handle or not", () => {
    expect(recipientAllowed([{ __kind: "Address", fields: [OWNER] }], to(null))).toBe(true);
    expect(recipientAllowed([{ __kind: "Address", fields: [DESTINATION] }], to("bob"))).toBe(true);
    expect(
      recipientAllowed(
        [{ __kind: "Address", fields: [address("SysvarRent111111111111111111111111111111111")] }],
        to(null),
      ),
    ).toBe(false);
  });
});

describe("withinActiveHours", () => {
  const MIDNIGHT = 1_704_153_600n; // 2024-01-02T00:00:00Z
  const at = (hours: number, minutes: number) => MIDNIGHT + BigInt(hours * 3600 + minutes * 60);

  it("Given 08:00-18:00, Then the start is in and the end is out", () => {
    expect(withinActiveHours(480, 1080, at(8, 0))).toBe(true);
    expect(withinActiveHours(480, 1080, at(17, 59))).toBe(true);
    expect(withinActiveHours(480, 1080, at(18, 0))).toBe(false);
    expect(withinActiveHours(480, 1080, at(7, 59))).toBe(false);
  });

  it("Given 22:00-06:00, Then it wraps midnight", () => {
    expect(withinActiveHours(1320, 360, at(23, 0))).toBe(true);
    expect(withinActiveHours(1320, 360, at(5, 59))).toBe(true);
    expect(withinActiveHours(1320, 360, at(6, 0))).toBe(false);
  });

  it("Given start == end, Then every moment is in", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), fc.bigInt({ min: 0n, max: 1n << 40n }), (minute, time) =>
        withinActiveHours(minute, minute, time),
      ),
    );
  });

  it("Given any window, Then a moment is in it exactly when it is out of the complementary window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 0, max: 1439 }),
        fc.bigInt({ min: 0n, max: 1n << 40n }),
        (start, end, time) =>
          start === end || withinActiveHours(start, end, time) !== withinActiveHours(end, start, time),
      ),
    );
  });
});
