import { describe, expect, it } from "vitest";
import { commitmentOfSlot, highestSlotAt, meetsCommitment } from "./commitment";

describe("commitment by slot depth", () => {
  it("is processed at depth 0, confirmed from 1, finalized from 32", () => {
    expect(commitmentOfSlot(100n, 100n)).toBe("processed");
    expect(commitmentOfSlot(100n, 101n)).toBe("confirmed");
    expect(commitmentOfSlot(100n, 131n)).toBe("confirmed");
    expect(commitmentOfSlot(100n, 132n)).toBe("finalized");
  });

  it("gives the highest slot at each level, never below genesis", () => {
    expect(highestSlotAt("processed", 140n, 100n)).toBe(140n);
    expect(highestSlotAt("confirmed", 140n, 100n)).toBe(139n);
    expect(highestSlotAt("finalized", 140n, 100n)).toBe(108n);
    expect(highestSlotAt("finalized", 110n, 100n)).toBe(100n);
  });

  it("orders levels", () => {
    expect(meetsCommitment("finalized", "confirmed")).toBe(true);
    expect(meetsCommitment("processed", "confirmed")).toBe(false);
    expect(meetsCommitment("confirmed", "confirmed")).toBe(true);
  });
});
