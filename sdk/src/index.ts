/**
 * `@cpay/sdk`: the agent-policy program's client. `./generated` is rendered from
 * `idl/agent_policy.json` by Codama (never edited by hand); `./program` adds what the IDL cannot
 * say: handle normalisation, the hashed PDAs, API-unit policy codecs, per-flow instruction
 * builders, event parsing from logs and error mapping. Where both define a name (`findReceiptPda`),
 * the checked helper from `./program` is the one exported.
 */

export * from "./generated";
export * from "./program";
export { findReceiptPda } from "./program";
