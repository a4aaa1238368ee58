/**
 * The local MCP server's own settings on "Connect an agent": the cluster it reads (RPC and WebSocket
 * URLs: the dashboard cannot know which node the agent's machine should use, so a test environment
 * starts from the localnet's usual ports), the amount above which it asks the human in the client,
 * and, for an existing self-custody agent, the signer secret the owner was given when creating it.
 */
import { parseUsdg } from "../lib/amounts";
import { clusterUrlProblem } from "../lib/mcp-config";
import { LabelledInput } from "./labelled-input";

export interface LocalFieldValues {
  readonly signerSecret: string;
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly confirmAbove: string;
}

type Problems = Partial<Record<keyof LocalFieldValues, string>>;

/** Where `bash scripts/start.sh` serves the localnet: a test environment's likely cluster. */
export function initialLocalFields(environment: string | undefined): LocalFieldValues {
  const test = environment === "test";
  return {
    signerSecret: "",
    rpcUrl: test ? "http://127.0.0.1:8899" : "",
    wsUrl: test ? "ws://127.0.0.1:8900" : "",
    confirmAbove: "",
  };
}

/** Each field's problem; `askSigner`: an existing agent, whose signer secret must be pasted. */
export function checkLocalFields(values: LocalFieldValues, askSigner: boolean): Problems {
  const problems: Problems = {};
  if (askSigner && values.signerSecret.trim() === "")
    problems.signerSecret = "Paste the agent's signer secret, or connect a new agent.";
  const rpc = clusterUrlProblem(values.rpcUrl, "rpc");
  if (rpc !== null) problems.rpcUrl = rpc;
  const ws = clusterUrlProblem(values.wsUrl, "ws");
  if (ws !== null) problems.wsUrl = ws;
  if (values.confirmAbove.trim() !== "" && parseUsdg(values.confirmAbove) === null)
    problems.confirmAbove = "A positive USDG amount with at most 6 decimals, or empty to never ask.";
  return problems;
}

const FIELDS: readonly {
  key: keyof LocalFieldValues;
  label: string;
  hint: string;
  secret?: boolean;
}[] = [
  {
    key: "signerSecret",
    label: "Its signer secret",
    hint: "The service gave it once, when the agent was created, and keeps no copy. Without it, connect a new agent.",
    secret: true,
  },
  { key: "rpcUrl", label: "Solana RPC URL", hint: "The cluster the agent's machine reads, over http(s)." },
  { key: "wsUrl", label: "Solana WebSocket URL", hint: "The same cluster's subscriptions, over ws(s)." },
  {
    key: "confirmAbove",
    label: "Ask me in the client above (USDG, optional)",
    hint: "The server asks before paying more than this; empty: it never asks. Your approval threshold still holds on-chain either way.",
  },
];

export function LocalServerFields(props: {
  values: LocalFieldValues;
  problems: Problems;
  askSigner: boolean;
  onChange: (values: LocalFieldValues) => void;
}) {
  return (
    <>
      {FIELDS.filter((field) => field.key !== "signerSecret" || props.askSigner).map((field) => (
        <LabelledInput
          key={field.key}
          id={`connect-${field.key}`}
          label={field.label}
          hint={field.hint}
          problem={props.problems[field.key]}
          value={props.values[field.key]}
          secret={field.secret}
          onInput={(value) => props.onChange({ ...props.values, [field.key]: value })}
        />
      ))}
    </>
  );
}
