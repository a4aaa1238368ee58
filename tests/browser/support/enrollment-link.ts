/**
 * A one-time enrollment link for `handle`, issued by the operator through the admin listener (the
 * route the admin CLI's `accounts enroll-link <handle>` calls). The link is
 * `<DASHBOARD_ORIGIN>/enroll#token=enr_<environment>_...`: the token rides in the fragment, never sent to a server.
 */
import { admin } from "./admin-client";

const LINK = /^https?:\/\/[^\s#]+\/enroll#token=enr_(?:test|live)_[A-Za-z0-9_-]{43}$/;
/** The admin listener's answer to a route it does not have (an API built before enrollment links). */
const NO_ROUTE = "no such admin route";

/** The link, or null when the API has no such route (the enrolment test then fails saying so). */
export async function enrollmentLink(
  operator: { adminUrl: string; adminToken: string },
  handle: string,
): Promise<string | null> {
  const path = `/admin/accounts/${encodeURIComponent(handle)}/enrollment-link`;
  const answer = await admin(operator, "POST", path).catch((error: Error) => {
    if (error.message.includes(NO_ROUTE)) return null;
    throw error;
  });
  if (answer === null) return null;
  const link = Object.values(answer.body ?? {}).find(
    (value) => typeof value === "string" && LINK.test(value),
  );
  if (typeof link !== "string") throw new Error(`no enrollment link in ${JSON.stringify(answer.body)}`);
  return link;
}
