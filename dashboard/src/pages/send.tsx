/**
 * /send: a transfer to an `@handle` or a Solana address, confidential unless unticked. The amount and
 * memo go to the API in the request body (the service builds the proofs and seals the details); the
 * 422 `recipient_not_confidential_ready` is explained with the way out (a public transfer).
 */
import { useState } from "preact/hooks";
import { ApiCallError, api, newIdempotencyKey } from "../api/client";
import type { Transfer } from "../api/types";
import { ActionForm } from "../components/action-form";
import { ActionFeedback } from "../components/feedback";
import { Link } from "../components/link";
import { TextField } from "../components/text-field";
import { useAction } from "../components/use-action";
import { parseUsdg } from "../lib/amounts";

const MAX_MEMO_BYTES = 200;
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function SendPage() {
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");
  const [memo, setMemo] = useState("");
  const [confidential, setConfidential] = useState(true);
  const { busy, error, run } = useAction();
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<Transfer | null>(null);
  // One key per intended transfer: a retry after a network failure cannot send twice.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const submit = async () => {
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
    await run("Sending: the service is building the zero-knowledge proofs…", async () => {
      const transfer = await api<Transfer>("POST", "/v1/transfers", {
        body: {
          to: recipient,
          amount: amount.trim(),
          asset: "USDG",
          confidential,
          ...(memo === "" ? {} : { memo }),
        },
        idempotencyKey,
      }).catch((failure: unknown) => {
        // Answered by the service: that intent is over, the next attempt is a new transfer.
        if (failure instanceof ApiCallError && failure.status !== 0) setIdempotencyKey(newIdempotencyKey());
        throw failure;
      });
      setSent(transfer);
      setAmount("");
      setMemo("");
      setIdempotencyKey(newIdempotencyKey());
    });
  };

  const notReady = error instanceof ApiCallError && error.code === "recipient_not_confidential_ready";
  return (
    <>
      <h1>Send</h1>
      <ActionForm class="stack" onSubmit={submit}>
        <TextField id="send-to" label="To" placeholder="@handle or address" value={to} onValue={setTo} />
        <TextField
          id="send-amount"
          label="Amount"
          inputMode="decimal"
          placeholder="USDG, e.g. 12.50"
          value={amount}
          onValue={setAmount}
        />
        <TextField id="send-memo" label="Memo" value={memo} onValue={setMemo} />
        <label class="inline">
          <input
            type="checkbox"
            checked={confidential}
            onChange={(e) => setConfidential(e.currentTarget.checked)}
          />{" "}
          Confidential (the amount is hidden on chain)
        </label>
        <button type="submit" class="primary" disabled={busy !== null}>
          Send
        </button>
      </ActionForm>
      {problem !== null ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      <ActionFeedback busy={busy} error={error} />
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
