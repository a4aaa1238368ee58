/**
 * A client's view of POST /v1/transfers in crash tests: what one request got (or that its
 * connection died), whether that answer is final for its Idempotency-Key, and which transfer it
 * names. A request without a final answer is retried with the same key, as a real client does.
 */

export interface TransferAnswer {
  readonly status: number;
  /** The service kept this answer for the key: every retry gets it again. */
  readonly replayed: boolean;
  readonly body: { transfer_id?: string; error?: { code?: string; message?: string } };
}

/** What a request whose connection died (its API was killed) got. */
export const NO_ANSWER: TransferAnswer = { status: 0, replayed: false, body: {} };

export interface TransferRequest {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly idempotencyKey: string;
  readonly body: { readonly to: string; readonly amount: string; readonly confidential: boolean };
}

/** Sends one request; NO_ANSWER when the connection fails (never throws for that). */
export async function postTransfer(request: TransferRequest): Promise<TransferAnswer> {
  try {
    const response = await fetch(`${request.apiUrl}/v1/transfers`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${request.apiKey}`,
        "content-type": "application/json",
        "idempotency-key": request.idempotencyKey,
      },
      body: JSON.stringify(request.body),
    });
    return {
      status: response.status,
      replayed: response.headers.get("idempotent-replayed") === "true",
      body: (await response.json()) as TransferAnswer["body"],
    };
  } catch {
    return NO_ANSWER;
  }
}

/**
 * A final answer: the request was decided, 2xx or a 4xx other than "another request holds the
 * key"; or one the service kept for the key (e.g. `503 chain_unavailable`: nothing moved, a new
 * key would make a new transfer); or `502 transfer_outcome_unknown`, which names the transfer (also
 * kept) and tells the client to follow it with GET.
 */
export const isFinal = (answer: TransferAnswer) =>
  answer !== NO_ANSWER &&
  (answer.replayed ||
    answer.body.error?.code === "transfer_outcome_unknown" ||
    (answer.status < 500 && answer.status !== 429 && answer.body.error?.code !== "idempotency_in_progress"));

/** The transfer an answer names: in a 201's body, or in a 502 transfer_outcome_unknown's message. */
export const transferOf = (answer: TransferAnswer) =>
  answer.body.transfer_id ?? answer.body.error?.message?.match(/\btr_[a-z0-9]+/)?.[0];

/** Answers for a failure message: status and code, not the whole body. */
export const summary = (list: readonly TransferAnswer[]) =>
  list
    .map((answer) =>
      answer === NO_ANSWER
        ? "no answer"
        : `${answer.status}${answer.body.error?.code ? ` ${answer.body.error.code}` : ""}`,
    )
    .join(", ");
