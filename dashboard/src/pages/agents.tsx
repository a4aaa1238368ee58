/**
 * /agents: the account's agents with their on-chain spend policies; create one (service custody, or
 * self custody whose signer secret is shown once), connect one to an MCP host (connect-agent.tsx),
 * edit a policy, and see each agent's held transactions, and what each may still spend today
 * (decrypted here after unlock: agent-budget.tsx).
 */
import { useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../api/client";
import type { Agent, Hold, SpendPolicy } from "../api/types";
import { ActionForm } from "../components/action-form";
import { AgentBudget } from "../components/agent-budget";
import { ConnectAgent } from "../components/connect-agent";
import { ActionFeedback, ErrorMessage, LoadFeedback } from "../components/feedback";
import { Link } from "../components/link";
import { PolicyFields } from "../components/policy-fields";
import { TextField } from "../components/text-field";
import { TitledSection } from "../components/titled-section";
import { useAction } from "../components/use-action";
import { useAsync } from "../components/use-async";
import { checkPolicy, EMPTY_POLICY, type PolicyFormValues } from "../lib/policy-form";
import { timeLeft } from "../lib/time";
import { useAppState } from "../state";

export function AgentsPage() {
  const agents = useAsync(() => api<{ agents: Agent[] }>("GET", "/v1/accounts/me/agents"), []);
  const pending = useAsync(() => api<{ pending: Hold[] }>("GET", "/v1/agents/transactions/pending"), []);
  return (
    <>
      <h1>Agents</h1>
      <CreateAgent onCreated={agents.reload} />
      <ConnectAgent agents={agents.data?.agents ?? []} onCreated={agents.reload} />
      <TitledSection id="agents-list" title="Your agents">
        <LoadFeedback load={agents} label="Loading agents…" />
        {agents.data !== null && agents.data.agents.length === 0 ? <p>No agents yet.</p> : null}
        {agents.data?.agents.map((agent) => (
          <AgentCard
            key={agent.account_id}
            agent={agent}
            held={(pending.data?.pending ?? []).filter((item) => item.agent === agent.handle)}
          />
        ))}
      </TitledSection>
    </>
  );
}

function CreateAgent(props: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [custody, setCustody] = useState<"service" | "self">("service");
  const [values, setValues] = useState<PolicyFormValues>(EMPTY_POLICY);
  const [problems, setProblems] = useState<Partial<Record<keyof PolicyFormValues, string>>>({});
  const { busy, error, setError, run } = useAction();
  const [created, setCreated] = useState<{ handle: string; signer_secret: string | null } | null>(null);

  const submit = async () => {
    setError(null);
    const checked = checkPolicy(values);
    setProblems(checked.problems);
    if (Object.keys(checked.problems).length > 0 || name.trim() === "") {
      if (name.trim() === "") setError(new Error("Give the agent a name (1 to 64 characters)."));
      return;
    }
    await run("Creating the agent and its on-chain policy…", async () => {
      const agent = await api<Agent & { signer_secret: string | null }>("POST", "/v1/accounts/me/agents", {
        body: { name: name.trim(), custody, spend_policy: checked.policy },
        idempotencyKey: newIdempotencyKey(),
      });
      setCreated({ handle: agent.handle, signer_secret: agent.signer_secret });
      setName("");
      setValues(EMPTY_POLICY);
      props.onCreated();
    });
  };

  return (
    <TitledSection id="create-agent" title="Create an agent" class="panel">
      <ActionForm class="stack" onSubmit={submit}>
        <TextField id="agent-name" label="Agent name" maxLength={64} value={name} onValue={setName} />
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
        <button type="submit" class="primary" disabled={busy !== null}>
          Create agent
        </button>
      </ActionForm>
      <ActionFeedback busy={busy} error={error} />
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
    </TitledSection>
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

function AgentCard(props: { agent: Agent; held: Hold[] }) {
  const { agent } = props;
  const { unlocked } = useAppState();
  const policy = useAsync(
    () => api<SpendPolicy>("GET", `/v1/agents/${encodeURIComponent(agent.account_id)}/spend-policy`),
    [agent.account_id],
  );
  const [editing, setEditing] = useState<PolicyFormValues | null>(null);
  const [problems, setProblems] = useState<Partial<Record<keyof PolicyFormValues, string>>>({});
  const { busy, error, run } = useAction();

  const save = async () => {
    if (editing === null) return;
    const checked = checkPolicy(editing);
    setProblems(checked.problems);
    if (Object.keys(checked.problems).length > 0) return;
    await run("Updating the on-chain policy…", async () => {
      await api("PATCH", `/v1/agents/${encodeURIComponent(agent.account_id)}/spend-policy`, {
        body: checked.policy,
      });
      setEditing(null);
      policy.reload();
    });
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
        <ActionForm class="stack" onSubmit={save}>
          <PolicyFields
            idPrefix={`${id}-policy`}
            values={editing}
            problems={problems}
            onChange={setEditing}
          />
          <div class="actions">
            <button type="submit" class="primary" disabled={busy !== null}>
              Save policy
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </ActionForm>
      ) : null}
      <ActionFeedback busy={busy} error={error} />
      <h4>Holds</h4>
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
