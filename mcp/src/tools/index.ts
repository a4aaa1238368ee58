/**
 * `@cpay/mcp/tools`: the tool definitions both MCP servers share (names, descriptions, zod input
 * schemas, annotations), what each server serves, and how a tool answers and refuses. The local
 * server (`@cpay/mcp/local-server`) and the service's remote `/mcp` door register these same
 * definitions, so a model meets one vocabulary whichever it is given.
 */
export * from "./account-tools";
export * from "./agent-budget-tools";
export * from "./approval-tools";
export * from "./fetch-paid-tool";
export * from "./pay-tools";
export { refusalAdvice } from "./refusal-advice";
export { type FailureReading, serveTool, type ToolExtra, type ToolHandler } from "./serve-tool";
export { LOCAL_SERVER_TOOLS, REMOTE_SERVER_TOOLS } from "./server-tools";
export { READ_ONLY, type ToolDefinition } from "./tool-definition";
export { type Refusal, toolAnswer, toolRefusal, UNEXPECTED_FAILURE } from "./tool-results";
export { type TransferFacts, transferSummary } from "./transfer-summary";
export * from "./transfer-tools";
