import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActiveHoursError, formatActiveHours, MINUTES_PER_DAY, parseActiveHours } from "./active-hours";

describe("active hours", () => {
  it("parses HH:MM-HH:MM into minutes of the UTC day, wrapping and all-day windows included", () => {
    expect(parseActiveHours("09:00-17:30")).toEqual({ startMinute: 540, endMinute: 1050 });
    expect(parseActiveHours("22:00-06:00")).toEqual({ startMinute: 1320, endMinute: 360 });
    expect(parseActiveHours("00:00-00:00")).toEqual({ startMinute: 0, endMinute: 0 });
    expect(parseActiveHours("23:59-00:00")).toEqual({ startMinute: 1439, endMinute: 0 });
  });

  it("refuses anything but two-digit hours 00-23 and minutes 00-59", () => {
    // Given malformed windows / When parsed / Then each is an ActiveHoursError
    for (const text of [
      "24:00-01:00",
      "9:00-17:00",
      "12:60-13:00",
      "09:00 - 17:00",
      "09:00-17:00:00",
      "",
      "09:00",
      "0900-1700",
      "09:00-24:00",
      "٠٩:00-17:00",
    ]) {
      expect(() => parseActiveHours(text), text).toThrow(ActiveHoursError);
    }
    expect(() => parseActiveHours(540)).toThrow(ActiveHoursError);
  });

  it("formats minutes back and refuses minutes outside the day", () => {
    expect(formatActiveHours({ startMinute: 540, endMinute: 1050 })).toBe("09:00-17:30");
    expect(() => formatActiveHours({ startMinute: MINUTES_PER_DAY, endMinute: 0 })).toThrow(ActiveHoursError);
    expect(() => formatActiveHours({ startMinute: 1.5, endMinute: 0 })).toThrow(ActiveHoursError);
  });

  it("round-trips every window (property)", () => {
    const minute = fc.integer({ min: 0, max: MINUTES_PER_DAY - 1 });
    fc.assert(
      fc.property(minute, minute, (startMinute, endMinute) => {
        const text = formatActiveHours({ startMinute, endMinute });
        expect(parseActiveHours(text)).toEqual({ startMinute, endMinute });
        expect(formatActiveHours(parseActiveHours(text))).toBe(text);
      }),
    );
  });

  it("either parses any string into minutes of the day or throws an ActiveHoursError (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^[0-9]{1,2}:[0-9]{1,2}-[0-9]{1,2}:[0-9]{1,2}$/)),
        (text) => {
          try {
            const { startMinute, endMinute } = parseActiveHours(text);
            for (const value of [startMinute, endMinute])
              expect(value >= 0 && value < MINUTES_PER_DAY).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(ActiveHoursError);
          }
        },
      ),
    );
  });
});
