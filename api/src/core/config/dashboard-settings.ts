/**
 * The dashboard's sign-in and sessions as configured (`DASHBOARD_ORIGIN`, `SESSION_IDLE_MINUTES`,
 * `SESSION_MAX_HOURS`; api/README.md, "Dashboard sign-in and sessions"), read by dashboard-auth/.
 */
import { ConfigError, integerFromEnv } from "@cpay/ledger/config";

export interface DashboardSettings {
  /** `DASHBOARD_ORIGIN`; null: `http://localhost:<the port listened on>`. */
  readonly origin: string | null;
  readonly sessionIdleMs: number;
  readonly sessionMaxMs: number;
}

/** The dashboard settings of `env`, with their defaults. */
export function dashboardSettingsFromEnv(env: NodeJS.ProcessEnv): DashboardSettings {
  const given = env.DASHBOARD_ORIGIN;
  let origin: string | null = null;
  if (given !== undefined && given !== "") {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw new ConfigError(
        `DASHBOARD_ORIGIN must be an origin such as https://pay.example.com, got "${given}"`,
      );
    }
    // An origin only: WebAuthn compares it whole with what the browser reports.
    if (!["http:", "https:"].includes(url.protocol) || url.origin !== given.replace(/\/$/, "")) {
      throw new ConfigError(
        `DASHBOARD_ORIGIN must be an http(s) origin without path, query or credentials, got "${given}"`,
      );
    }
    origin = url.origin;
  }
  return {
    origin,
    sessionIdleMs: integerFromEnv(env, "SESSION_IDLE_MINUTES", 30, 1, 1440) * 60_000,
    sessionMaxMs: integerFromEnv(env, "SESSION_MAX_HOURS", 12, 1, 720) * 3_600_000,
  };
}
