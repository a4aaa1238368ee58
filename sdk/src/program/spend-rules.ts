/**
 * The spend policy's rules that need no balance, as the program applies them to an agent's spend
 * (`rules/recipients.rs`, `rules/active_hours.rs`, `rules/limits.rs`): a service can check them
 * before it looks at any balance, so which refusal comes back never depends on the balance. The
 * program stays the enforcer; these must never be stricter than it (a transfer it would let
 * through must pass here too).
 */
import type { Address } from "@solana/kit";
import type { RecipientPattern } from "../generated";
import { MINUTES_PER_DAY } from "./active-hours";

const SECONDS_PER_DAY = 86_400n;

/** Who a spend goes to, as the program sees it. */
export interface SpendRecipient {
  /** The normalised handle without `@` when the spend names one (proved by its Handle account). */
  readonly handle: string | null;
  /** The destination token account. */
  readonly destination: Address;
  /** The wallet that owns the destination token account. */
  readonly destinationOwner: Address;
}

/**
 * Whether one of `patterns` admits `recipient` (an empty list admits anyone): a name equals the
 * handle; a suffix `acme` matches `pay.acme` but never `acme` nor `xacme`; an address is the
 * destination token account or its owner. Without a handle only address patterns can match.
 */
export function recipientAllowed(patterns: readonly RecipientPattern[], recipient: SpendRecipient): boolean {
  if (patterns.length === 0) return true;
  const { handle } = recipient;
  return patterns.some((pattern) => {
    switch (pattern.__kind) {
      case "Name":
        return handle !== null && handle === pattern.fields[0];
      case "Suffix": {
        const suffix = pattern.fields[0];
        return handle !== null && handle.length > suffix.length + 1 && handle.endsWith(`.${suffix}`);
      }
      case "Address":
        return (
          pattern.fields[0] === recipient.destination || pattern.fields[0] === recipient.destinationOwner
        );
      default:
        return false;
    }
  });
}

/**
 * Whether `unixTime` (the cluster's clock) falls in the active window: start inclusive, end
 * exclusive, minutes of the UTC day; start > end wraps midnight; start == end is all day.
 */
export function withinActiveHours(startMinute: number, endMinute: number, unixTime: bigint): boolean {
  const second = ((unixTime % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY;
  const minute = Number(second / 60n) % MINUTES_PER_DAY;
  if (startMinute === endMinute) return true;
  if (startMinute < endMinute) return startMinute <= minute && minute < endMinute;
  return minute >= startMinute || minute < endMinute;
}
