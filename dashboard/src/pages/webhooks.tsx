/**
 * /webhooks: subscriptions (create with the signing secret shown once, list, delete with a
 * confirmation) and each one's delivery log: state, last status code, retry count, and Replay to
 * send an event again.
 */
import { useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../api/client";
import { type Delivery, type Page, WEBHOOK_EVENT_TYPES, type Webhook } from "../api/types";
import { ActionForm } from "../components/action-form";
import { ConfirmStep } from "../components/confirm";
import { DataTable } from "../components/data-table";
import { ErrorMessage, LoadFeedback } from "../components/feedback";
import { ShownOnce } from "../components/shown-once";
import { TitledSection } from "../components/titled-section";
import { useAction } from "../components/use-action";
import { useAsync } from "../components/use-async";
import { useConfirmed } from "../components/use-confirmed";
import { formatTime } from "../lib/time";

export function WebhooksPage() {
  const list = useAsync(() => api<{ webhooks: Webhook[] }>("GET", "/v1/webhooks"), []);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<Set<string>>(new Set(WEBHOOK_EVENT_TYPES));
  const { busy, error, setError, run } = useAction();
  const [secret, setSecret] = useState<string | null>(null);

  const create = async () => {
    setError(null);
    setSecret(null);
    if (url.trim() === "" || events.size === 0) {
      setError(new Error("Give the endpoint URL and at least one event."));
      return;
    }
    await run("Creating the webhook…", async () => {
      const created = await api<Webhook & { secret: string | null }>("POST", "/v1/webhooks", {
        body: { url: url.trim(), events: [...events] },
        idempotencyKey: newIdempotencyKey(),
      });
      setSecret(created.secret);
      setUrl("");
      list.reload();
    });
  };

  const remove = useConfirmed(async (webhook: Webhook) => {
    await api("DELETE", `/v1/webhooks/${encodeURIComponent(webhook.webhook_id)}`);
    list.reload();
  }, setError);

  return (
    <>
      <h1>Webhooks</h1>
      <TitledSection id="create-webhook" title="Create a webhook" class="panel">
        <ActionForm class="stack" onSubmit={create}>
          <label for="webhook-url">Webhook URL</label>
          <input
            id="webhook-url"
            type="url"
            placeholder="https://…"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
          <fieldset>
            <legend>Events</legend>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label class="inline" key={type}>
                <input
                  type="checkbox"
                  checked={events.has(type)}
                  onChange={(event) => {
                    const next = new Set(events);
                    if (event.currentTarget.checked) next.add(type);
                    else next.delete(type);
                    setEvents(next);
                  }}
                />{" "}
                {type}
              </label>
            ))}
          </fieldset>
          <button type="submit" class="primary" disabled={busy !== null}>
            Create webhook
          </button>
        </ActionForm>
        {secret !== null ? (
          <ShownOnce value={secret}>The signing secret (verify each delivery's signature with it)</ShownOnce>
        ) : null}
      </TitledSection>
      <ErrorMessage error={error} />
      <LoadFeedback load={list} label="Loading webhooks…" />
      {list.data !== null && list.data.webhooks.length === 0 ? <p>No webhooks yet.</p> : null}
      {list.data?.webhooks.map((webhook) => (
        <WebhookCard key={webhook.webhook_id} webhook={webhook} onDelete={() => remove.ask(webhook)} />
      ))}
      <ConfirmStep step={remove} title="Delete this webhook?">
        {(webhook) => <p>Deliveries to {webhook.url} stop, and the queued ones are cancelled.</p>}
      </ConfirmStep>
    </>
  );
}

function WebhookCard(props: { webhook: Webhook; onDelete: () => void }) {
  const { webhook } = props;
  const deliveries = useAsync(
    () =>
      api<Page & { deliveries: Delivery[] }>(
        "GET",
        `/v1/webhooks/${encodeURIComponent(webhook.webhook_id)}/deliveries`,
        {
          query: { limit: 50 },
        },
      ),
    [webhook.webhook_id],
  );
  const [error, setError] = useState<unknown>(null);
  const [replayed, setReplayed] = useState<string | null>(null);

  const replay = async (delivery: Delivery) => {
    setError(null);
    setReplayed(null);
    try {
      await api(
        "POST",
        `/v1/webhooks/${encodeURIComponent(webhook.webhook_id)}/replay/${encodeURIComponent(delivery.event_id)}`,
        { idempotencyKey: newIdempotencyKey() },
      );
      setReplayed(`${delivery.event} (${delivery.event_id}) queued again.`);
      deliveries.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  const titleId = `${webhook.webhook_id}-title`;
  return (
    <article class="card" aria-labelledby={titleId} data-webhook-id={webhook.webhook_id}>
      <h2 id={titleId}>{webhook.url}</h2>
      <p class="muted">
        {webhook.events.join(", ")} · created {formatTime(webhook.created_at)}
      </p>
      <div class="actions">
        <button type="button" onClick={() => deliveries.reload()}>
          Refresh log
        </button>
        <button type="button" onClick={props.onDelete}>
          Delete webhook
        </button>
      </div>
      <ErrorMessage error={deliveries.error} />
      <ErrorMessage error={error} />
      {replayed !== null ? (
        <p class="notice" role="status">
          {replayed}
        </p>
      ) : null}
      {deliveries.data !== null && deliveries.data.deliveries.length === 0 ? <p>No deliveries yet.</p> : null}
      {deliveries.data !== null && deliveries.data.deliveries.length > 0 ? (
        <DataTable
          caption={`Delivery log of ${webhook.url}`}
          columns={["Event", "Created", "State", "Last status", "Retries", "Next attempt", "Action"]}
        >
          {deliveries.data.deliveries.map((delivery) => (
            <tr
              key={delivery.delivery_id}
              data-delivery-id={delivery.delivery_id}
              data-state={delivery.state}
            >
              <td>{delivery.event}</td>
              <td>{formatTime(delivery.created_at)}</td>
              <td>{delivery.state}</td>
              <td>{delivery.last_status_code ?? delivery.history.at(-1)?.error ?? "—"}</td>
              <td>{delivery.retry_count}</td>
              <td>{delivery.next_attempt_at === null ? "—" : formatTime(delivery.next_attempt_at)}</td>
              <td>
                <button type="button" onClick={() => void replay(delivery)}>
                  Replay
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </article>
  );
}
