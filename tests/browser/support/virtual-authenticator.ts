/**
 * A platform passkey authenticator inside the browser, through the DevTools protocol's WebAuthn
 * domain: CTAP2 over the internal transport, discoverable (resident) credentials, user
 * verification that always succeeds, and the PRF extension (Debian's Chromium 156 answers PRF on
 * create and get). An authenticator belongs to one page; a credential exported from one (private
 * key included) can be added to another, so later tests sign in with the passkey enrolled once.
 * Such a re-added credential has no PRF secret (Chromium does not export it): PRF unlock can only
 * be tested on the authenticator that created the credential.
 */
import type { BrowserContext, CDPSession, Page } from "@playwright/test";

export interface VirtualCredential {
  readonly credentialId: string;
  readonly isResidentCredential: boolean;
  readonly rpId?: string;
  readonly privateKey: string;
  readonly userHandle?: string;
  readonly signCount: number;
}

export interface VirtualAuthenticator {
  readonly id: string;
  credentials(): Promise<VirtualCredential[]>;
  add(credential: VirtualCredential): Promise<void>;
  /** Whether the next ceremonies pass user verification (false: the user "fails" the prompt). */
  setUserVerified(verified: boolean): Promise<void>;
  remove(): Promise<void>;
}

export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    id: authenticatorId,
    async credentials() {
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      return credentials as VirtualCredential[];
    },
    async add(credential) {
      await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
    },
    async setUserVerified(verified) {
      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: verified });
    },
    async remove() {
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId }).catch(() => {});
    },
  };
}
