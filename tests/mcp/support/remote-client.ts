/**
 * An MCP client of a world's `/mcp` door, as an integrator's host makes one: the SDK's own `Client`
 * over its streamable HTTP transport, the API key as the bearer. Every message of the exchange is
 * kept, for the suites' plaintext canary: what the server sent back (each response body, whatever
 * its status) and what the client said.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export interface RemoteClient {
  readonly client: Client;
  close(): Promise<void>;
}

/** Both sides of a client's exchange with the server, as text. */
export interface Transcript {
  /** Every response body the server sent. */
  readonly heard: string[];
  /** Every request body the client sent. */
  readonly said: string[];
}

/** Connects to `${baseUrl}/mcp` with `apiKey`, writing the exchange into `transcript`. */
export async function connectRemoteClient(
  baseUrl: string,
  apiKey: string,
  transcript: Transcript,
): Promise<RemoteClient> {
  const { heard, said } = transcript;
  const listening: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string") said.push(init.body);
    const answer = await fetch(input, init);
    heard.push(await answer.clone().text());
    return answer;
  };
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: listening,
  });
  const client = new Client({ name: "remote-suite", version: "1" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}
