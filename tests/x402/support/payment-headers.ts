/**
 * A `fetch` that keeps every `PAYMENT-SIGNATURE` header a payer sends, so a suite can replay a paid
 * request's payment later, and the payload inside one.
 */
import type { PaymentPayload } from "@x402/core/types";

export interface RecordedPayments {
  readonly fetch: typeof fetch;
  /** Every PAYMENT-SIGNATURE header sent, in order. */
  readonly headers: string[];
}

export function recordingPayments(): RecordedPayments {
  const headers: string[] = [];
  return {
    headers,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const header = request.headers.get("PAYMENT-SIGNATURE");
      if (header !== null) headers.push(header);
      return fetch(request);
    },
  };
}

/** The payload a PAYMENT-SIGNATURE header carries (base64 JSON). */
export function paymentOf(header: string): PaymentPayload {
  return JSON.parse(Buffer.from(header, "base64").toString()) as PaymentPayload;
}
