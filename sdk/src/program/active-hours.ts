/**
 * Active hours: the API's `HH:MM-HH:MM` (UTC) <-> the policy's start and end minute of the day.
 * Start inclusive, end exclusive; start > end wraps midnight (`22:00-06:00`); start == end is all
 * day. Strict two-digit fields: `24:00`, `9:00`, `12:60`, spaces or seconds are refused.
 */

export const MINUTES_PER_DAY = 1440;

/** The window that never closes, used when a policy does not name one. */
export const ALL_DAY = "00:00-00:00";

/** A parsed window in minutes of the UTC day, each in [0, 1440). */
export interface ActiveMinutes {
  readonly startMinute: number;
  readonly endMinute: number;
}

/** A refused window; the message says what the format is. */
export class ActiveHoursError extends Error {
  override readonly name = "ActiveHoursError";
  readonly code = "malformed_active_hours";
}

const WINDOW = /^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$/;

/**
 * Parses `HH:MM-HH:MM` (hours 00-23, minutes 00-59, both two digits) into minutes of the day.
 * Throws an `ActiveHoursError` for anything else, including non-strings.
 */
export function parseActiveHours(value: unknown): ActiveMinutes {
  const match = typeof value === "string" ? WINDOW.exec(value) : null;
  if (match === null) {
    throw new ActiveHoursError(
      'must be "HH:MM-HH:MM" in UTC, hours 00-23 and minutes 00-59 (e.g. "09:00-17:30")',
    );
  }
  const [, startHour, startMinute, endHour, endMinute] = match.map(Number);
  return {
    startMinute: (startHour ?? 0) * 60 + (startMinute ?? 0),
    endMinute: (endHour ?? 0) * 60 + (endMinute ?? 0),
  };
}

/** Formats minutes of the day as `HH:MM-HH:MM`; throws an `ActiveHoursError` outside [0, 1440). */
export function formatActiveHours(window: ActiveMinutes): string {
  return `${formatMinute(window.startMinute)}-${formatMinute(window.endMinute)}`;
}

function formatMinute(minute: number): string {
  if (!Number.isInteger(minute) || minute < 0 || minute >= MINUTES_PER_DAY) {
    throw new ActiveHoursError(`minute of the day ${minute} is outside 0..1439`);
  }
  const pad = (part: number) => String(part).padStart(2, "0");
  return `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
}
