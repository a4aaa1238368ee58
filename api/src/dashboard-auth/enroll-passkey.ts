/**
 * Enrollment: an enrollment link's token -> passkey creation options (resident key and user
 * verification required, attestation "none": the service trusts the account holder's choice of
 * authenticator, it only needs the key), their challenge bound to the asking browser -> the
 * registration response from that same browser, verified against the challenge, the dashboard's
 * origin and RP ID -> in one transaction the challenge and the link are spent, the passkey stored
 * and a session started. A refusal changes nothing; a registration that does not verify is one
 * generic answer, the verifier's detail going to the log only.
 */
import type { PasskeyRow } from "@cpay/ledger";
import { isUniqueViolation } from "@cpay/ledger/database";
import { bytesOfId, newId } from "@cpay/ledger/ids";
import type { TEnrollmentRequest } from "@cpay/sdk/api";
import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import { and, eq, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { boundChallenge, isBoundTo } from "./challenge-binding";
import {
  challengeOfClientData,
  challengeRefused,
  recordChallenge,
  requireLiveChallenge,
  spendChallengeIn,
} from "./challenges";
import { dashboardSite } from "./dashboard-site";
import { usableEnrollment } from "./enrollment-links";
import { type DashboardSession, isoAt, startSessionIn } from "./sessions";

export const RP_NAME = "cpay";

/** The one answer to a registration that did not verify; the verifier's reason, in `detail`, is for the log. */
function registrationRefused(detail: string): ApiError {
  return new ApiError(
    "passkey_verification_failed",
    "the new passkey's registration did not verify; start the enrollment again",
    "credential",
    undefined,
    detail,
  );
}

/**
 * Creation options for the link's account (its live passkeys excluded, so one is not made twice),
 * with a challenge bound to the asking browser's `binding` (challenge-binding.ts).
 */
export async function beginEnrollment(service: ServiceContext, token: string, binding: string) {
  const { enrollment, account } = await service.db.read((db) => usableEnrollment(service, db, token));
  const { passkeys } = service.db.tables;
  const existing = await service.db.read((db) =>
    db
      .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(and(eq(passkeys.accountId, account.id), isNull(passkeys.revokedAt))),
  );
  const site = dashboardSite(service);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: site.rpId,
    userName: account.handle,
    userDisplayName: account.handle,
    userID: new Uint8Array(bytesOfId(account.id)),
    challenge: boundChallenge(binding),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      transports: JSON.parse(row.transports) as string[],
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await recordChallenge(service, {
    challenge: options.challenge,
    purpose: "enrollment",
    enrollmentTokenId: enrollment.id,
  });
  return { options: options as unknown as { challenge: string }, handle: account.handle };
}

/**
 * Verifies the registration, over a challenge bound to this browser's `binding`, and starts the
 * first session of the new passkey.
 */
export async function completeEnrollment(
  service: ServiceContext,
  input: TEnrollmentRequest,
  binding: string | null,
): Promise<DashboardSession> {
  const { enrollment, account } = await service.db.read((db) => usableEnrollment(service, db, input.token));
  const { webauthnChallenges, passkeys, enrollmentTokens } = service.db.tables;
  const challenge = challengeOfClientData(input.credential.response.clientDataJSON);
  const [row] =
    challenge === null
      ? []
      : await service.db.read((db) =>
          db
            .select()
            .from(webauthnChallenges)
            .where(
              and(
                eq(webauthnChallenges.challenge, challenge),
                eq(webauthnChallenges.enrollmentTokenId, enrollment.id),
              ),
            ),
        );
  const live = requireLiveChallenge(service, row, "enrollment");
  if (!isBoundTo(live.challenge, binding))
    throw challengeRefused("the challenge was asked for by another browser");
  const site = dashboardSite(service);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.credential as Parameters<typeof verifyRegistrationResponse>[0]["response"],
      expectedChallenge: live.challenge,
      expectedOrigin: site.origin,
      expectedRPID: site.rpId,
      requireUserVerification: true,
    });
  } catch (error) {
    throw registrationRefused((error as Error).message);
  }
  if (!verified.verified) throw registrationRefused("the registration did not verify");
  const { credential } = verified.registrationInfo;
  const now = service.clock();
  try {
    return await service.db.transaction(async (tx) => {
      if (!(await spendChallengeIn(service, tx, live.id)))
        throw challengeRefused("the challenge was already used");
      const spent = await tx
        .update(enrollmentTokens)
        .set({ spentAt: isoAt(now) })
        .where(and(eq(enrollmentTokens.id, enrollment.id), isNull(enrollmentTokens.spentAt)))
        .returning({ id: enrollmentTokens.id });
      if (spent.length !== 1) {
        throw new ApiError("enrollment_link_invalid", "this enrollment link was used meanwhile", "token");
      }
      const [passkey] = await tx
        .insert(passkeys)
        .values({
          id: newId("pk"),
          accountId: account.id,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          counter: credential.counter,
          transports: JSON.stringify(credential.transports ?? input.credential.response.transports ?? []),
          name: input.passkey_name ?? "Passkey",
          createdAt: isoAt(now),
          lastUsedAt: isoAt(now),
        })
        .returning();
      return startSessionIn(service, tx, { account, passkey: passkey as PasskeyRow });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw registrationRefused("this credential id is already registered");
    throw error;
  }
}
