/**
 * /sign-in: the holder picks the environment (Test or Live: each has its own accounts and passkeys;
 * the last one used is offered first), then a discoverable passkey assertion (no handle typed). The
 * same touch evaluates the PRF extension; when this passkey holds a wrapped secret, its output
 * unlocks the account at once. The PRF output stays in this page; the server gets the assertion only.
 */
import { ENVIRONMENTS, type EnvironmentName } from "@cpay/sdk/environment";
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { SessionView } from "../api/types";
import { ActionFeedback } from "../components/feedback";
import { useAction } from "../components/use-action";
import { getPasskey, type RequestOptionsJson } from "../crypto/webauthn";
import { ENVIRONMENT_LABELS, rememberEnvironment, rememberedEnvironment } from "../lib/environment";
import { navigate } from "../router";
import { update, useAppState } from "../state";
import { unlockWithPrfOutput } from "../unlock";

const HINTS: Readonly<Record<EnvironmentName, string>> = {
  test: "test money on the test cluster",
  live: "real money on Solana mainnet",
};

export function SignInPage() {
  const { notice } = useAppState();
  const [environment, setChosen] = useState<EnvironmentName>(rememberedEnvironment);
  const { busy, error, setError, run } = useAction();

  const signIn = () =>
    run("Waiting for the passkey…", async () => {
      const { challenge_id, options } = await api<{ challenge_id: string; options: RequestOptionsJson }>(
        "POST",
        "/v1/dashboard/sign-in/options",
        { body: {}, environment },
      );
      const { credential, prfOutput } = await getPasskey(options);
      const session = await api<SessionView>("POST", "/v1/dashboard/sign-in", {
        body: { challenge_id, credential },
        quietOn401: true,
        environment,
      });
      rememberEnvironment(session.environment);
      update({ session, notice: null });
      if (prfOutput !== null && session.wrapped_secret !== null) {
        // Best effort: a blob that does not open leaves the manual unlock in place.
        await unlockWithPrfOutput(prfOutput).catch(() => undefined);
      }
      // Back to the page that asked for a sign-in (a deep link, or the one whose session expired).
      if (location.pathname === "/sign-in") navigate("/", { replace: true });
    });

  return (
    <main id="main" class="auth">
      <h1>Sign in</h1>
      {notice !== null ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <fieldset class="environment">
        <legend>Environment</legend>
        {ENVIRONMENTS.map((name) => (
          <label key={name}>
            <input
              type="radio"
              name="environment"
              value={name}
              checked={environment === name}
              disabled={busy !== null}
              onChange={() => {
                setChosen(name);
                setError(null);
              }}
            />{" "}
            {ENVIRONMENT_LABELS[name]} <span class="hint">({HINTS[name]})</span>
          </label>
        ))}
      </fieldset>
      <p>Use the passkey you enrolled for your {ENVIRONMENT_LABELS[environment].toLowerCase()} account.</p>
      <button type="button" class="primary" disabled={busy !== null} onClick={() => void signIn()}>
        Sign in with a passkey
      </button>
      <ActionFeedback busy={busy} error={error} />
    </main>
  );
}
