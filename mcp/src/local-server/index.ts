/**
 * `@cpay/mcp/local-server`: the local MCP server of a self-custody agent (see local-server.ts and
 * this package's README.md); `main.ts` runs it over stdio (`cpay-mcp`).
 */
export { createLocalServer, LOCAL_SERVER_NAME, type LocalServerOptions } from "./local-server";
export { CONFIRM_ABOVE_SETTING, type LocalServerSettings, localServerSettingsFromEnv } from "./settings";
