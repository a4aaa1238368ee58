/**
 * /enroll#token=enr_<environment>_...: registers the account's first passkey from the operator's
 * one-time link. The token is read from the URL fragment (never sent to a server by the browser,
 * never in a log) and goes only into the two enrollment requests' bodies; its environment (live or
 * test) is named in their `X-Cpay-Environment` header, so a live account's link reaches the live
 * environment.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { SessionView } from "../api/types";
import { ActionForm } from "../components/action-form";
import { ActionFeedback } from "../components/feedback";
import { TextField } from "../components/text-field";
import { useAction } from "../components/use-action";
import { type CreationOptionsJson, createPasskey } from "../crypto/webauthn";
import { ENVIRONMENT_LABELS, environmentOfEnrollmentToken, rememberEnvironment } from "../lib/environment";
import { navigate } from "../router";
import { update } from "../state";

function tokenFromFragment(): string | null {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  return match?.[1] === undefined ? null : decodeURIComponent(match[1]);
}

export function EnrollPage() {
  const [token] = useState(tokenFromFragment);
  const [handle, setHandle] = useState<string | null>(null);
  const [name, setName] = useState("My passkey");
  const { busy, error, run } = useAction();

  useEffect(() => {
    // The token has been read: keep it out of the address bar and the history.
    if (location.hash !== "") history.replaceState(null, "", location.pathname);
  }, []);

  if (token === null) {
    return (
      <main id="main" class="auth">
        <h1>Enroll a passkey</h1>
        <p role="alert">
          This page needs the one-time enrollment link your operator gave you (it ends in #token=…).
        </p>
      </main>
    );
  }

  const environment = environmentOfEnrollmentToken(token);

  const enroll = () =>
    run("Waiting for the passkey…", async () => {
      const { options, handle: forHandle } = await api<{ options: CreationOptionsJson; handle: string }>(
        "POST",
        "/v1/dashboard/enrollment/options",
        { body: { token }, environment },
      );
      setHandle(forHandle);
      const { credential } = await createPasskey(options);
      const session = await api<SessionView>("POST", "/v1/dashboard/enrollment", {
        body: { token, credential, passkey_name: name.trim() === "" ? undefined : name.trim() },
        environment,
      });
      rememberEnvironment(session.environment);
      update({ session, notice: null });
      navigate("/", { replace: true });
    });

  return (
    <main id="main" class="auth">
      <h1>Enroll a passkey</h1>
      <p>
        {handle === null ? "Create the passkey" : `Create the passkey for ${handle}`} you will sign in with.
        It stays on your device; the service keeps only its public key.
      </p>
      <p>
        Environment: <strong>{ENVIRONMENT_LABELS[environment]}</strong>
        {environment === "live" ? " (real money on Solana mainnet)" : " (test money on the test cluster)"}
      </p>
      <ActionForm onSubmit={enroll}>
        <TextField id="passkey-name" label="Passkey name" maxLength={64} value={name} onValue={setName} />
        <button type="submit" class="primary" disabled={busy !== null}>
          Create passkey
        </button>
      </ActionForm>
      <ActionFeedback busy={busy} error={error} />
    </main>
  );
}
