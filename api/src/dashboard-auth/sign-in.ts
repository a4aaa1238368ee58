/**
 * Discoverable sign-in: request options with an empty allow list (the authenticator offers the
 * account's resident passkey, no handle is typed), user verification required and a challenge bound
 * to the asking browser -> the assertion, from that same browser, found by its credential id among
 * live passkeys and verified against the stored challenge, the dashboard's origin and RP ID, the
 * public key and the signature counter -> in one transaction the challenge is spent, the counter
 * moved and a session started. A refused assertion changes nothing; a replayed one finds its
 * challenge spent (and its counter behind). Every refusal of the passkey is one generic answer
 * (`passkeyRefused`), the verifier's detail going to the log only.
 */
import type { TSignInRequest } from "@cpay/sdk/api";
import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server";
import { and, eq, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { boundChallenge, isBoundTo } from "./challenge-binding";
import { challengeRefused, recordChallenge, requireLiveChallenge, spendChallengeIn } from "./challenges";
import { dashboardSite } from "./dashboard-site";
import { type DashboardSession, isoAt, startSessionIn } from "./sessions";

/**
 * The one answer to a sign-in whose passkey was not accepted, whether no passkey here has its
 * credential id (unknown, revoked, another environment's) or the registered passkey's answer did
 * not verify (origin, RP ID, challenge, user verification, signature, counter): telling them apart
 * would tell a caller which credential ids are registered. `detail` is the reason, for the log.
 */
function passkeyRefused(service: ServiceContext, detail: string): ApiError {
  return new ApiError(
    "passkey_not_recognized",
    `no passkey of this service's ${service.environment} environment accepted this sign-in (it is unknown or revoked here, or its answer did not verify); was it enrolled in the other one?`,
    "credential",
    undefined,
    detail,
  );
}

/** Request options whose challenge is bound to the asking browser's `binding` (challenge-binding.ts). */
export async function beginSignIn(service: ServiceContext, binding: string) {
  const options = await generateAuthenticationOptions({
    rpID: dashboardSite(service).rpId,
    challenge: boundChallenge(binding),
    userVerification: "required",
    allowCredentials: [],
  });
  const row = await recordChallenge(service, { challenge: options.challenge, purpose: "sign_in" });
  return { challenge_id: row.id, options: options as unknown as { challenge: string } };
}

/** Verifies the assertion, over a challenge bound to this browser's `binding`, and starts a session. */
export async function completeSignIn(
  service: ServiceContext,
  input: TSignInRequest,
  binding: string | null,
): Promise<DashboardSession> {
  const { webauthnChallenges, passkeys, accounts } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db.select().from(webauthnChallenges).where(eq(webauthnChallenges.id, input.challenge_id)),
  );
  const challenge = requireLiveChallenge(service, row, "sign_in");
  if (!isBoundTo(challenge.challenge, binding))
    throw challengeRefused("the challenge was asked for by another browser");
  const [found] = await service.db.read((db) =>
    db
      .select({ passkey: passkeys, account: accounts })
      .from(passkeys)
      .innerJoin(accounts, eq(accounts.id, passkeys.accountId))
      .where(and(eq(passkeys.credentialId, input.credential.id), isNull(passkeys.revokedAt)))
      .limit(1),
  );
  if (found === undefined || found.account.type === "agent") {
    throw passkeyRefused(service, "no unrevoked passkey of an account holder has this credential id");
  }
  const { passkey, account } = found;
  const site = dashboardSite(service);
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: input.credential as Parameters<typeof verifyAuthenticationResponse>[0]["response"],
      expectedChallenge: challenge.challenge,
      expectedOrigin: site.origin,
      expectedRPID: site.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: JSON.parse(passkey.transports) as never,
      },
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error("the signature did not verify");
    newCounter = verified.authenticationInfo.newCounter;
  } catch (error) {
    throw passkeyRefused(service, (error as Error).message);
  }
  const now = service.clock();
  return service.db.transaction(async (tx) => {
    if (!(await spendChallengeIn(service, tx, challenge.id)))
      throw challengeRefused("the challenge was already used");
    // Guarded by the counter read: of two assertions racing on one passkey, one wins.
    const [moved] = await tx
      .update(passkeys)
      .set({ counter: newCounter, lastUsedAt: isoAt(now) })
      .where(
        and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter), isNull(passkeys.revokedAt)),
      )
      .returning();
    if (moved === undefined) throw passkeyRefused(service, "the passkey's counter moved meanwhile");
    return startSessionIn(service, tx, { account, passkey: moved });
  });
}
