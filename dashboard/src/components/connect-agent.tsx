/**
 * "Connect an agent": in one step, what an agent's MCP host needs, as the configuration JSON to
 * copy. The local server (runs beside the agent, signs with the agent's own key) takes a new
 * self-custody agent — its signer secret exists only in the create answer — or an existing one whose
 * signer secret the owner pastes; its confidential secret is derived here from the owner's unlocked
 * secret. The remote server (the service signs) takes a new or existing service-custody agent. Both
 * get a fresh API key of the agent's own. connect-agent-steps.ts makes the requests.
 */
import { useState } from "preact/hooks";
import type { Agent } from "../api/types";
import { configText, localServerConfig, type McpClientConfig, remoteServerConfig } from "../lib/mcp-config";
import { checkPolicy, EMPTY_POLICY, type PolicyFormValues } from "../lib/policy-form";
import { type Unlocked, useAppState } from "../state";
import { ConfigShownOnce } from "./config-shown-once";
import {
  agentConfidentialSecret,
  type CreatedForConnection,
  CUSTODY_OF,
  createAgentFor,
  issueAgentKey,
  type McpServerKind,
} from "./connect-agent-steps";
import {
  checkLocalFields,
  initialLocalFields,
  type LocalFieldValues,
  LocalServerFields,
} from "./connect-local-fields";
import { ErrorMessage, Progress } from "./feedback";
import { PolicyFields } from "./policy-fields";
import { TitledSection } from "./titled-section";

const NEW_AGENT = "new";

const SERVERS: readonly { kind: McpServerKind; label: string }[] = [
  {
    kind: "local",
    label: "Local server: runs beside the agent and signs with the agent's own key (self custody)",
  },
  { kind: "remote", label: "Remote server: the service signs for the agent (service custody)" },
];

interface Connected {
  readonly server: McpServerKind;
  readonly handle: string;
  readonly config: McpClientConfig;
}

/** The configuration of `server` for the agent, with its fresh key (and, local, its secrets). */
function configFor(
  server: McpServerKind,
  target: CreatedForConnection,
  apiKey: string,
  local: { values: LocalFieldValues; unlocked: Unlocked },
): McpClientConfig {
  if (server === "remote") return remoteServerConfig({ serviceOrigin: location.origin, apiKey });
  const confirmAbove = local.values.confirmAbove.trim();
  return localServerConfig({
    apiUrl: location.origin,
    apiKey,
    signerSecret: target.signerSecret ?? local.values.signerSecret.trim(),
    confidentialSecret: agentConfidentialSecret(local.unlocked, target.agent),
    rpcUrl: local.values.rpcUrl.trim(),
    wsUrl: local.values.wsUrl.trim(),
    confirmAbove: confirmAbove === "" ? null : confirmAbove,
  });
}

export function ConnectAgent(props: { agents: readonly Agent[]; onCreated: () => void }) {
  const { session, unlocked } = useAppState();
  const [server, setServer] = useState<McpServerKind>("local");
  const [choice, setChoice] = useState(NEW_AGENT);
  const [name, setName] = useState("");
  const [policy, setPolicy] = useState<PolicyFormValues>(EMPTY_POLICY);
  const [policyProblems, setPolicyProblems] = useState<Partial<Record<keyof PolicyFormValues, string>>>({});
  const [local, setLocal] = useState(() => initialLocalFields(session?.environment));
  const [localProblems, setLocalProblems] = useState<ReturnType<typeof checkLocalFields>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // A new agent an attempt made before a later step failed: the retry goes on from it (a
  // self-custody agent's signer secret cannot be asked for again).
  const [made, setMade] = useState<CreatedForConnection | null>(null);
  // One per intended agent: a retry after a lost answer does not create a second one.
  const [createKey, setCreateKey] = useState(() => crypto.randomUUID());
  const [connected, setConnected] = useState<Connected | null>(null);

  const existing =
    props.agents.find((agent) => agent.account_id === choice && agent.custody === CUSTODY_OF[server]) ?? null;
  // Kept across a switch of server, so a self-custody agent's signer secret is never dropped.
  const resumed = made !== null && made.agent.custody === CUSTODY_OF[server] ? made : null;
  const needsUnlock = server === "local" && unlocked === null;

  const connect = async () => {
    setError(null);
    setConnected(null);
    const newAgent = existing === null && resumed === null;
    if (newAgent && name.trim() === "") {
      setError(new Error("Give the agent a name (1 to 64 characters)."));
      return;
    }
    const checked = newAgent ? checkPolicy(policy) : { problems: {}, policy: {} };
    setPolicyProblems(checked.problems);
    const localChecked = server === "local" ? checkLocalFields(local, existing !== null) : {};
    setLocalProblems(localChecked);
    if (Object.keys(checked.problems).length > 0 || Object.keys(localChecked).length > 0) return;
    if (server === "local" && unlocked === null) return;
    setBusy(true);
    try {
      let target = existing === null ? resumed : { agent: existing, signerSecret: null };
      if (target === null) {
        target = await createAgentFor(server, { name: name.trim(), policy: checked.policy }, createKey);
        setMade(target);
        props.onCreated();
      }
      const apiKey = await issueAgentKey(target.agent, server);
      const config = configFor(server, target, apiKey, { values: local, unlocked: unlocked as Unlocked });
      setConnected({ server, handle: target.agent.handle, config });
      setMade(null);
      setCreateKey(crypto.randomUUID());
      setName("");
      setPolicy(EMPTY_POLICY);
      setLocal({ ...local, signerSecret: "" });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <TitledSection id="connect-agent" title="Connect an agent over MCP" class="panel">
      <p>
        The configuration an agent's host (a desktop assistant, an agent framework) takes to use one of cpay's
        MCP servers, with a fresh API key of the agent's own. The agent's spend policy binds it on-chain
        whichever server it uses.
      </p>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void connect();
        }}
      >
        <fieldset>
          <legend>Server</legend>
          {SERVERS.map((option) => (
            <label class="inline" key={option.kind}>
              <input
                type="radio"
                name="mcp-server"
                value={option.kind}
                checked={server === option.kind}
                onChange={() => {
                  setServer(option.kind);
                  setChoice(NEW_AGENT);
                }}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        <label for="connect-agent">Agent</label>
        <select id="connect-agent" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
          <option value={NEW_AGENT}>A new agent</option>
          {props.agents
            .filter((agent) => agent.custody === CUSTODY_OF[server])
            .map((agent) => (
              <option key={agent.account_id} value={agent.account_id}>
                {agent.handle}
              </option>
            ))}
        </select>
        {existing === null && resumed !== null ? (
          <p>Carrying on with {resumed.agent.handle}, created by the last attempt.</p>
        ) : null}
        {existing === null && resumed === null ? (
          <>
            <label for="connect-agent-name">Agent name</label>
            <input
              id="connect-agent-name"
              type="text"
              maxLength={64}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
            <PolicyFields
              idPrefix="connect-policy"
              values={policy}
              problems={policyProblems}
              onChange={setPolicy}
            />
          </>
        ) : null}
        {server === "local" ? (
          <LocalServerFields
            values={local}
            problems={localProblems}
            askSigner={existing !== null}
            onChange={setLocal}
          />
        ) : null}
        {needsUnlock ? (
          <p class="hint">
            Unlock first: the agent's confidential secret is derived from yours, in this page.
          </p>
        ) : null}
        <button type="submit" class="primary" disabled={busy || needsUnlock}>
          Make the configuration
        </button>
      </form>
      {busy ? <Progress label="Connecting the agent…" /> : null}
      <ErrorMessage error={error} />
      {connected !== null ? (
        <ConfigShownOnce text={configText(connected.config)}>
          The {connected.server} server's configuration for {connected.handle}, with its API key
          {connected.server === "local" ? " and secrets" : ""}
        </ConfigShownOnce>
      ) : null}
    </TitledSection>
  );
}
