/**
 * The shell: checks the session once, routes, and frames every signed-in page with the navigation,
 * the session's environment (a "Live" badge: real money), the unlock step (while locked) and Sign
 * out. Without a session every page but /enroll shows the sign-in page; a 401 from any request (expired or revoked session) returns there with a notice.
 */
import { useEffect } from "preact/hooks";
import { api, currentSession, whenSessionLost } from "./api/client";
import type { Account } from "./api/types";
import { Link } from "./components/link";
import { UnlockPanel, WrapOffer } from "./components/unlock-panel";
import { ENVIRONMENT_LABELS } from "./lib/environment";
import { AgentsPage } from "./pages/agents";
import { ApprovalsPage } from "./pages/approvals";
import { EnrollPage } from "./pages/enroll";
import { KeysPage } from "./pages/keys";
import { OverviewPage } from "./pages/overview";
import { PasskeysPage } from "./pages/passkeys";
import { SendPage } from "./pages/send";
import { SignInPage } from "./pages/sign-in";
import { TransfersPage } from "./pages/transfers";
import { WebhooksPage } from "./pages/webhooks";
import { navigate, usePath } from "./router";
import { signedOut, update, useAppState } from "./state";

const NAV = [
  { href: "/", label: "Overview", page: OverviewPage },
  { href: "/transfers", label: "Transfers", page: TransfersPage },
  { href: "/send", label: "Send", page: SendPage },
  { href: "/agents", label: "Agents", page: AgentsPage },
  { href: "/approvals", label: "Approvals", page: ApprovalsPage },
  { href: "/developer/keys", label: "API keys", page: KeysPage },
  { href: "/webhooks", label: "Webhooks", page: WebhooksPage },
  { href: "/security/passkeys", label: "Passkeys", page: PasskeysPage },
] as const;

whenSessionLost((code) => {
  signedOut(
    code === "session_expired"
      ? "Your session expired. Sign in again."
      : "You are signed out (the session ended or its passkey was revoked). Sign in again.",
  );
  // The address stays: signing in again returns to the same page.
});

export function App() {
  const path = usePath();
  const { ready, session, account, unlocked } = useAppState();

  useEffect(() => {
    currentSession().then(
      (found) => update({ ready: true, session: found }),
      () => update({ ready: true, session: null }),
    );
  }, []);

  useEffect(() => {
    if (session === null || account !== null) return;
    api<Account>("GET", "/v1/accounts/me").then(
      (me) => update({ account: me }),
      () => undefined,
    );
  }, [session, account]);

  useEffect(() => {
    const entry = NAV.find((item) => item.href === path);
    document.title = entry === undefined ? "cpay dashboard" : `${entry.label} · cpay dashboard`;
  }, [path]);

  if (path === "/enroll") return <EnrollPage />;
  if (!ready) return <p role="status">Loading…</p>;
  if (session === null) return <SignInPage />;
  if (path === "/sign-in") return <Redirect to="/" />;

  const entry = NAV.find((item) => item.href === path);
  const Page = entry?.page;
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">cpay</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} current={item.href === path}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span
            class={session.environment === "live" ? "badge environment live" : "badge environment"}
            title={session.environment === "live" ? "Real money on Solana mainnet" : "Test money"}
          >
            {ENVIRONMENT_LABELS[session.environment]}
          </span>
          <span>{session.account.handle}</span>
          <span class={unlocked === null ? "badge" : "badge ok"}>
            {unlocked === null ? "locked" : "unlocked"}
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
          <button type="button" onClick={() => void signOutEverywhere()}>
            End all sessions
          </button>
        </div>
      </header>
      <main id="main">
        {unlocked === null ? <UnlockPanel /> : <WrapOffer />}
        {Page === undefined ? (
          <section>
            <h1>Not found</h1>
            <p>
              No page at {path}. <Link href="/">Go to the overview</Link>.
            </p>
          </section>
        ) : (
          <Page />
        )}
      </main>
    </div>
  );
}

function Redirect(props: { to: string }) {
  useEffect(() => navigate(props.to, { replace: true }), [props.to]);
  return null;
}

/** Ends every session of the account (other browsers and devices too), then this one. */
function signOutEverywhere(): Promise<void> {
  // A failure leaves the other sessions to expire.
  return endSession("POST", "/v1/dashboard/sign-out-everywhere", "You are signed out on every device.");
}

function signOut(): Promise<void> {
  return endSession("DELETE", "/v1/dashboard/session", "You are signed out.");
}

/** Asks the service to end the session, then forgets it and its keys here whatever the answer. */
async function endSession(method: "POST" | "DELETE", path: string, notice: string): Promise<void> {
  try {
    await api(method, path, { quietOn401: true });
  } catch {
    // Signed out either way: the page forgets the session and the keys.
  }
  signedOut(notice);
  navigate("/sign-in", { replace: true });
}
