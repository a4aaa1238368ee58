/**
 * /agents: the account's agents with their on-chain spend policies; create one (service custody, or
 * self custody whose signer secret is shown once), connect one to an MCP host (connect-agent.tsx),
 * edit a policy, and see each agent's held transactions, and what each may still spend today
 * (decrypted here after unlock: agent-budget.tsx).
 */
import { useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../api/client";
import type { Agent, PendingTransaction, SpendPolicy } from "../api/types";
import { AgentBudget } from "../components/agent-budget";
import { ConnectAgent } from "../components/connect-agent";
import { ErrorMessage, Progress } from "../components/feedback";
import { Link } from "../components/link";
import { PolicyFields } from "../components/policy-fields";
import { useAsync } from "../components/use-async";
import { checkPolicy, EMPTY_POLICY, type PolicyFormValues } from "../lib/policy-form";
import { timeLeft } from "../lib/time";
import { useAppState } from "../state";

export function AgentsPage() {
  const agents = useAsync(() => api<{ agents: Agent[] }>("GET", "/v1/accounts/me/agents"), []);
  const pending = useAsync(
    () => api<{ pending: PendingTransaction[] }>("GET", "/v1/agents/transactions/pending"),
    [],
  );
  return (
    <>
      <h1>Agents</h1>
      <CreateAgent onCreated={agents.reload} />
      <ConnectAgent agents={agents.data?.agents ?? []} onCreated={agents.reload} />
      <section aria-labelledby="agents-list-title">
        <h2 id="agents-list-title">Your agents</h2>
        <ErrorMessage error={agents.error} />
        {agents.loading && agents.data === null ? <Progress label="Loading agents…" /> : null}
        {agents.data !== null && agents.data.agents.length === 0 ? <p>No agents yet.</p> : null}
        {agents.data?.agents.map((agent) => (
          <AgentCard
            key={agent.account_id}
            agent={agent}
            held={(pending.data?.pending ?? []).filter((item) => item.agent === agent.handle)}
          />
        ))}
      </section>
    </>
  );
}

function CreateAgent(props: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [custody, setCustody] = useState<"service" | "self">("service");
  const [values, setValues] = useState<PolicyFormValues>(EMPTY_POLICY);
  const [problems, setProblems] = useState<Partial<Record<keyof PolicyFormValues, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<{ handle: string; signer_secret: string | null } | null>(null);

  const submit = async () => {
    setError(null);
    const checked = checkPolicy(values);
    setProblems(checked.problems);
    if (Object.keys(checked.problems).length > 0 || name.trim() === "") {
      if (name.trim() === "") setError(new Error("Give the agent a name (1 to 64 characters)."));
      return;
    }
    setBusy(true);
    try {
      const agent = await api<Agent & { signer_secret: string | null }>("POST", "/v1/accounts/me/agents", {
        body: { name: name.trim(), custody, spend_policy: checked.policy },
        idempotencyKey: newIdempotencyKey(),
      });
      setCreated({ handle: agent.handle, signer_secret: agent.signer_secret });
      setName("");
      setValues(EMPTY_POLICY);
      props.onCreated();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="create-agent-title">
      <h2 id="create-agent-title">Create an agent</h2>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label for="agent-name">Agent name</label>
        <input
          id="agent-name"
          type="text"
          maxLength={64}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label for="agent-custody">Custody</label>
        <select
          id="agent-custody"
          value={custody}
          onChange={(e) => setCustody(e.currentTarget.value as "service" | "self")}
        >
          <option value="service">The service signs for it</option>
          <option value="self">Self custody (its signer secret is shown once)</option>
        </select>
        <PolicyFields idPrefix="new-policy" values={values} problems={problems} onChange={setValues} />
        <button type="submit" class="primary" disabled={busy}>
          Create agent
        </button>
      </form>
      {busy ? <Progress label="Creating the agent and its on-chain policy…" /> : null}
      <ErrorMessage error={error} />
      {created !== null ? (
        <div class="notice" role="status">
          <p>Agent {created.handle} created.</p>
          {created.signer_secret !== null ? (
            <p>
              Its signer secret, shown this once (copy it now):{" "}
              <code class="secret-once">{created.signer_secret}</code>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function toForm(policy: SpendPolicy): PolicyFormValues {
  return {
    daily_limit_usdg: String(policy.daily_limit_usdg),
    per_transaction_limit_usdg: String(policy.per_transaction_limit_usdg),
    hitl_threshold_usdg: String(policy.hitl_threshold_usdg),
    assets: policy.assets.join(", "),
    allowed_recipients: policy.allowed_recipients.join(", "),
    active_hours: policy.active_hours,
    approval_window_seconds: String(policy.approval_window_seconds),
  };
}

function AgentCard(props: { agent: Agent; held: PendingTransaction[] }) {
  const { agent } = props;
  const { unlocked } = useAppState();
  const policy = useAsync(
    () => api<SpendPolicy>("GET", `/v1/agents/${encodeURIComponent(agent.account_id)}/spend-policy`),
    [agent.account_id],
  );
  const [editing, setEditing] = useState<PolicyFormValues | null>(null);
  const [problems, setProblems] = useState<Partial<Record<keyof PolicyFormValues, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const save = async () => {
    if (editing === null) return;
    const checked = checkPolicy(editing);
    setProblems(checked.problems);
    if (Object.keys(checked.problems).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await api("PATCH", `/v1/agents/${encodeURIComponent(agent.account_id)}/spend-policy`, {
        body: checked.policy,
      });
      setEditing(null);
      policy.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const id = agent.account_id;
  return (
    <article class="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{agent.handle}</h3>
      <p class="muted">
        {agent.custody === "service" ? "service custody" : "self custody"} · {agent.public_key}
      </p>
      <ErrorMessage error={policy.error} />
      {policy.data !== null && editing === null ? (
        <>
          <dl class="policy">
            <dt>Daily limit</dt>
            <dd>{policy.data.daily_limit_usdg} USDG</dd>
            <dt>Per transaction</dt>
            <dd>{policy.data.per_transaction_limit_usdg} USDG</dd>
            <dt>Approval above</dt>
            <dd>{policy.data.hitl_threshold_usdg} USDG</dd>
            <dt>Assets</dt>
            <dd>{policy.data.assets.join(", ")}</dd>
            <dt>Recipients</dt>
            <dd>
              {policy.data.allowed_recipients.length === 0
                ? "anyone"
                : policy.data.allowed_recipients.join(", ")}
            </dd>
            <dt>Active hours (UTC)</dt>
            <dd>{policy.data.active_hours === "00:00-00:00" ? "all day" : policy.data.active_hours}</dd>
            <dt>Approval window</dt>
            <dd>{policy.data.approval_window_seconds} s</dd>
            <AgentBudget accountId={agent.account_id} unlocked={unlocked} />
          </dl>
          <button type="button" onClick={() => policy.data !== null && setEditing(toForm(policy.data))}>
            Edit policy<span class="visually-hidden"> of {agent.handle}</span>
          </button>
        </>
      ) : null}
      {editing !== null ? (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <PolicyFields
            idPrefix={`${id}-policy`}
            values={editing}
            problems={problems}
            onChange={setEditing}
          />
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              Save policy
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {busy ? <Progress label="Updating the on-chain policy…" /> : null}
      <ErrorMessage error={error} />
      <h4>Held transactions</h4>
      {props.held.length === 0 ? (
        <p>None waiting.</p>
      ) : (
        <ul>
          {props.held.map((item) => (
            <li key={item.transaction_id}>
              to {item.to}, {timeLeft(item.expires_at)} — <Link href="/approvals">decide in Approvals</Link>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
