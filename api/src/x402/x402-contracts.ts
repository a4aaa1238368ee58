/**
 * The facilitator interface's bodies, as x402 v2's `HTTPFacilitatorClient` (`@x402/core/server`)
 * sends and reads them: `POST /verify` and `POST /settle` take `{ x402Version, paymentPayload,
 * paymentRequirements }`; `/verify` answers a `VerifyResponse`, `/settle` a `SettleResponse`, `GET
 * /supported` a `SupportedResponse`. Checked at this trust boundary for the fields the facilitator
 * reads; other fields x402 lets a client add (a resource, extensions) pass through unread.
 */
import { z } from "zod";

/** What the resource server asks for (x402 v2 `PaymentRequirements`). */
export const ZX402Requirements = z.looseObject({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  /** Base units of `asset`, as a decimal string. */
  amount: z.string().regex(/^\d{1,20}$/, "must be a whole number of base units"),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int().nonnegative().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type TX402Requirements = z.infer<typeof ZX402Requirements>;

/** What the payer sent (x402 v2 `PaymentPayload` of the `exact` SVM scheme). */
export const ZX402Payload = z.looseObject({
  x402Version: z.number().int(),
  accepted: ZX402Requirements,
  payload: z.looseObject({
    /** The partially signed transaction, wire format, base64. */
    transaction: z.string().min(1).max(4096),
  }),
});
export type TX402Payload = z.infer<typeof ZX402Payload>;

/** The body of `POST /verify` and `POST /settle`. */
export const ZX402FacilitatorRequest = z.looseObject({
  x402Version: z.number().int().optional(),
  paymentPayload: ZX402Payload,
  paymentRequirements: ZX402Requirements,
});
export type TX402FacilitatorRequest = z.infer<typeof ZX402FacilitatorRequest>;

/** `POST /verify`'s answer (x402 v2 `VerifyResponse`). */
export interface TX402VerifyResponse {
  readonly isValid: boolean;
  readonly invalidReason?: string;
  readonly invalidMessage?: string;
  readonly payer?: string;
}

/** `POST /settle`'s answer (x402 v2 `SettleResponse`). */
export interface TX402SettleResponse {
  readonly success: boolean;
  readonly errorReason?: string;
  readonly errorMessage?: string;
  readonly payer?: string;
  /** The transaction's signature ("" when nothing was sent). */
  readonly transaction: string;
  readonly network: string;
  /** The base units that moved, as the landed transaction shows them. */
  readonly amount?: string;
}

/** `GET /supported`'s answer (x402 v2 `SupportedResponse`). */
export interface TX402SupportedResponse {
  readonly kinds: readonly {
    readonly x402Version: number;
    readonly scheme: string;
    readonly network: string;
    readonly extra: { readonly feePayer: string; readonly features: { readonly smartWalletSupported: true } };
  }[];
  readonly extensions: readonly string[];
  readonly signers: Readonly<Record<string, readonly string[]>>;
}
