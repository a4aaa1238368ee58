/**
 * /send: a transfer to an `@handle` or a Solana address, confidential unless unticked. The amount and
 * memo go to the API in the request body (the service builds the proofs and seals the details); the
 * 422 `recipient_not_confidential_ready` is explained with the way out (a public transfer).
 */
import { useState } from "preact/hooks";
import { ApiCallError, api, newIdempotencyKey } from "../api/client";
import type { Transfer } from "../api/types";
import { ErrorMessage, Progress } from "../components/feedback";
import { Link } from "../components/link";
import { parseUsdg } from "../lib/amounts";

const MAX_MEMO_BYTES = 200;
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function SendPage() {
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");
  const [memo, setMemo] = useState("");
  const [confidential, setConfidential] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<Transfer | null>(null);
  // One key per intended transfer: a retry after a network failure cannot send twice.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const submit = async () => {
    setError(null);
    setProblem(null);
    const recipient = to.trim();
    if (!(recipient.startsWith("@") && recipient.length > 1) && !ADDRESS.test(recipient)) {
      setProblem("To must be an @handle or a Solana address.");
      return;
    }
    if (parseUsdg(amount) === null) {
      setProblem("Amount must be a positive USDG amount with at most 6 decimals, such as 12.50.");
      return;
    }
    if (new TextEncoder().encode(memo).length > MAX_MEMO_BYTES) {
      setProblem(`The memo is at most ${MAX_MEMO_BYTES} bytes.`);
      return;
    }
    setBusy(true);
    try {
      const transfer = await api<Transfer>("POST", "/v1/transfers", {
        body: {
          to: recipient,
          amount: amount.trim(),
          asset: "USDG",
          confidential,
          ...(memo === "" ? {} : { memo }),
        },
        idempotencyKey,
      });
      setSent(transfer);
      setAmount("");
      setMemo("");
      setIdempotencyKey(newIdempotencyKey());
    } catch (failure) {
      if (failure instanceof ApiCallError && failure.status !== 0) setIdempotencyKey(newIdempotencyKey());
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const notReady = error instanceof ApiCallError && error.code === "recipient_not_confidential_ready";
  return (
    <>
      <h1>Send</h1>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label for="send-to">To</label>
        <input
          id="send-to"
          type="text"
          placeholder="@handle or address"
          value={to}
          onInput={(e) => setTo(e.currentTarget.value)}
        />
        <label for="send-amount">Amount</label>
        <input
          id="send-amount"
          type="text"
          inputMode="decimal"
          placeholder="USDG, e.g. 12.50"
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
        <label for="send-memo">Memo</label>
        <input id="send-memo" type="text" value={memo} onInput={(e) => setMemo(e.currentTarget.value)} />
        <label class="inline">
          <input
            type="checkbox"
            checked={confidential}
            onChange={(e) => setConfidential(e.currentTarget.checked)}
          />{" "}
          Confidential (the amount is hidden on chain)
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Send
        </button>
      </form>
      {problem !== null ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      {busy ? <Progress label="Sending: the service is building the zero-knowledge proofs…" /> : null}
      <ErrorMessage error={error} />
      {notReady ? (
        <div class="notice" role="note">
          <p>
            The recipient cannot receive confidential transfers yet: its token account is not configured for
            them, or the mint's issuer has not approved it. Nothing was sent.
          </p>
          <p>
            Ask the recipient to finish its set-up, or untick Confidential to send a public transfer (its
            amount is visible on chain).
          </p>
        </div>
      ) : null}
      {sent !== null ? (
        <p class="notice" role="status">
          Transfer {sent.transfer_id} is {sent.status}
          {sent.approval !== null ? " and waits for approval" : ""}.{" "}
          <Link href="/transfers">See it in Transfers</Link>.
        </p>
      ) : null}
    </>
  );
}
