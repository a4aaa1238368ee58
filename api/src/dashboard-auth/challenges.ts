/**
 * WebAuthn challenges, each valid 5 minutes and for one use: kept in the database (not in memory),
 * so any API process can finish a ceremony another began. Expired rows are swept when new ones are
 * made, so an address asking for options in a loop leaves at most 5 minutes' worth.
 */
import type { WebauthnChallengeRow } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { newId } from "@cpay/ledger/ids";
import { and, eq, isNull, lt } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { isoAt } from "./sessions";

export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = "sign_in" | "enrollment";

/** Records a challenge the options carry. */
export async function recordChallenge(
  service: ServiceContext,
  input: {
    readonly challenge: string;
    readonly purpose: ChallengePurpose;
    readonly enrollmentTokenId?: string;
  },
): Promise<WebauthnChallengeRow> {
  const { webauthnChallenges } = service.db.tables;
  const now = service.clock();
  const [row] = await service.db.transaction(async (tx) => {
    await tx.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, isoAt(now)));
    return tx
      .insert(webauthnChallenges)
      .values({
        id: newId("chl"),
        purpose: input.purpose,
        challenge: input.challenge,
        enrollmentTokenId: input.enrollmentTokenId ?? null,
        createdAt: isoAt(now),
        expiresAt: isoAt(now + CHALLENGE_TTL_MS),
      })
      .returning();
  });
  return row as WebauthnChallengeRow;
}

/**
 * The refusal of a challenge that is unknown, used, expired or another browser's: one answer for
 * all (the step is simply to be started again), the reason in `detail` for the log.
 */
export function challengeRefused(detail: string): ApiError {
  return new ApiError(
    "passkey_verification_failed",
    "this sign-in or enrollment step is no longer valid; start it again",
    "credential",
    undefined,
    detail,
  );
}

/** An unused, unexpired challenge of `purpose`, or `challengeRefused`. */
export function requireLiveChallenge(
  service: ServiceContext,
  row: WebauthnChallengeRow | undefined,
  purpose: ChallengePurpose,
): WebauthnChallengeRow {
  if (row === undefined || row.purpose !== purpose) throw challengeRefused("unknown challenge");
  if (row.usedAt !== null) throw challengeRefused("the challenge was already used");
  if (Date.parse(row.expiresAt) <= service.clock()) throw challengeRefused("the challenge expired");
  return row;
}

/** Marks the challenge used inside `tx`; false when another request used it first. */
export async function spendChallengeIn(service: ServiceContext, tx: Db, id: string): Promise<boolean> {
  const { webauthnChallenges } = service.db.tables;
  const spent = await tx
    .update(webauthnChallenges)
    .set({ usedAt: isoAt(service.clock()) })
    .where(and(eq(webauthnChallenges.id, id), isNull(webauthnChallenges.usedAt)))
    .returning({ id: webauthnChallenges.id });
  return spent.length === 1;
}

/** The challenge a WebAuthn response's clientDataJSON carries, or null when it is unreadable. */
export function challengeOfClientData(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as {
      challenge?: unknown;
    };
    return typeof parsed.challenge === "string" ? parsed.challenge : null;
  } catch {
    return null;
  }
}
