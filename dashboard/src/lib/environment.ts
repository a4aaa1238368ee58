/**
 * Which environment (test or live) the page's requests are for before a session says so: the
 * enrollment link's token names it, and the sign-in page offers the one last used. Only that
 * choice is remembered (localStorage), never a secret or a session.
 */
import type { EnvironmentName } from "@cpay/sdk/environment";

const REMEMBERED = "cpay.environment";

/** The environment of an enrollment token: `enr_live_...` is live; `enr_test_...` and the older `enr_<43>` are test. */
export function environmentOfEnrollmentToken(token: string): EnvironmentName {
  return token.startsWith("enr_live_") && token.length === "enr_live_".length + 43 ? "live" : "test";
}

/** The environment signed in to last on this browser (test when none was, or storage is off). */
export function rememberedEnvironment(): EnvironmentName {
  try {
    return localStorage.getItem(REMEMBERED) === "live" ? "live" : "test";
  } catch {
    return "test";
  }
}

export function rememberEnvironment(environment: EnvironmentName): void {
  try {
    localStorage.setItem(REMEMBERED, environment);
  } catch {
    // Storage off (a private window): the page offers test next time.
  }
}

/** How the page names an environment. */
export const ENVIRONMENT_LABELS: Readonly<Record<EnvironmentName, string>> = { test: "Test", live: "Live" };
