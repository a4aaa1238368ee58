/**
 * /sign-in: a discoverable passkey assertion (no handle typed). The same touch evaluates the PRF
 * extension; when this passkey holds a wrapped secret, its output unlocks the account at once. The
 * PRF output stays in this page; the server gets the assertion only.
 */
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { SessionView } from "../api/types";
import { ErrorMessage, Progress } from "../components/feedback";
import { getPasskey, type RequestOptionsJson } from "../crypto/webauthn";
import { navigate } from "../router";
import { update, useAppState } from "../state";
import { unlockWithPrfOutput } from "../unlock";

export function SignInPage() {
  const { notice } = useAppState();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const { challenge_id, options } = await api<{ challenge_id: string; options: RequestOptionsJson }>(
        "POST",
        "/v1/dashboard/sign-in/options",
        { body: {} },
      );
      const { credential, prfOutput } = await getPasskey(options);
      const session = await api<SessionView>("POST", "/v1/dashboard/sign-in", {
        body: { challenge_id, credential },
        quietOn401: true,
      });
      update({ session, notice: null });
      if (prfOutput !== null && session.wrapped_secret !== null) {
        // Best effort: a blob that does not open leaves the manual unlock in place.
        await unlockWithPrfOutput(prfOutput).catch(() => undefined);
      }
      // Back to the page that asked for a sign-in (a deep link, or the one whose session expired).
      if (location.pathname === "/sign-in") navigate("/", { replace: true });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="auth">
      <h1>Sign in</h1>
      {notice !== null ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <p>Use the passkey you enrolled for your account.</p>
      <button type="button" class="primary" disabled={busy} onClick={() => void signIn()}>
        Sign in with a passkey
      </button>
      {busy ? <Progress label="Waiting for the passkey…" /> : null}
      <ErrorMessage error={error} />
    </main>
  );
}
