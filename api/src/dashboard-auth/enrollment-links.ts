/**
 * Enrollment links: how an account holder registers a first passkey (or a new one after losing
 * theirs). The operator's admin CLI asks for one; the link is
 * `<DASHBOARD_ORIGIN>/enroll#token=enr_<environment>_...` (a fragment: the browser never sends it to
 * a server or a log). Valid 24 h, one use, for personal and business accounts only (an agent never
 * signs in). A new link spends the account's earlier ones, so only the newest handed out works.
 * Each environment issues links for its own accounts and refuses the other's without looking them
 * up: the dashboard reads the environment from the token and sends its requests there.
 */
import type { AccountRow, EnrollmentTokenRow } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { newId } from "@cpay/ledger/ids";
import { and, eq, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { environmentOfEnrollmentToken, generateEnrollmentToken, hashToken } from "./secret-tokens";
import { isoAt } from "./sessions";

export const ENROLLMENT_LINK_TTL_MS = 24 * 3_600_000;

export interface EnrollmentLink {
  readonly link: string;
  readonly expiresAt: string;
}

/** Issues a new enrollment link for a personal or business account (spending earlier ones). */
export async function issueEnrollmentLink(
  service: ServiceContext,
  account: AccountRow,
): Promise<EnrollmentLink> {
  if (account.type === "agent") throw new RangeError("an agent never signs in to the dashboard");
  const { enrollmentTokens } = service.db.tables;
  const token = generateEnrollmentToken(service.environment);
  const now = service.clock();
  const expiresAt = isoAt(now + ENROLLMENT_LINK_TTL_MS);
  await service.db.transaction(async (tx) => {
    await tx
      .update(enrollmentTokens)
      .set({ spentAt: isoAt(now) })
      .where(and(eq(enrollmentTokens.accountId, account.id), isNull(enrollmentTokens.spentAt)));
    await tx.insert(enrollmentTokens).values({
      id: newId("enr"),
      accountId: account.id,
      tokenHash: hashToken(token),
      createdAt: isoAt(now),
      expiresAt,
    });
  });
  return { link: `${service.dashboardOrigin()}/enroll#token=${token}`, expiresAt };
}

/** The unspent, unexpired link of `token` and its account; anything else is `enrollment_link_invalid`. */
export async function usableEnrollment(
  service: ServiceContext,
  db: Db,
  token: string,
): Promise<{ enrollment: EnrollmentTokenRow; account: AccountRow }> {
  const invalid = new ApiError(
    "enrollment_link_invalid",
    "this enrollment link is unknown, already used or expired; ask the operator for a new one",
    "token",
  );
  // Malformed, or of the other environment: never issued by this database. An old-format token
  // (`enr_<43>`, issued before links named their environment) reads as the test environment's.
  if (environmentOfEnrollmentToken(token) !== service.environment) throw invalid;
  const { enrollmentTokens, accounts } = service.db.tables;
  const [found] = await db
    .select({ enrollment: enrollmentTokens, account: accounts })
    .from(enrollmentTokens)
    .innerJoin(accounts, eq(accounts.id, enrollmentTokens.accountId))
    .where(eq(enrollmentTokens.tokenHash, hashToken(token)))
    .limit(1);
  if (
    found === undefined ||
    found.enrollment.spentAt !== null ||
    Date.parse(found.enrollment.expiresAt) <= service.clock() ||
    found.account.type === "agent"
  ) {
    throw invalid;
  }
  return found;
}
