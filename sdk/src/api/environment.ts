/**
 * The two environments of one service (test and live, as at a card processor) and the header a
 * request names its environment with when no credential does: the dashboard's enrollment and
 * sign-in steps carry neither key nor session, so the front router would otherwise always send
 * them to the test environment. The admin surface reads the same header. One constant for the
 * service, the admin CLI, the dashboard (`@cpay/sdk/environment`: no zod, so a page can import
 * it) and the OpenAPI document.
 */

/** The request header naming an environment: `test` or `live` (spelled as Node presents it). */
export const ENVIRONMENT_HEADER = "x-cpay-environment";

export const ENVIRONMENTS = ["test", "live"] as const;
export type EnvironmentName = (typeof ENVIRONMENTS)[number];

/** The environment a header value names, or null for anything but `test`/`live`. */
export function environmentOfHeader(value: string): EnvironmentName | null {
  return value === "test" || value === "live" ? value : null;
}
