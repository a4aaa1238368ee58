/**
 * What the suite does as the operator and as the account's own integrations: the admin listener
 * (accounts, funding, keys, enrollment links) and plain `/v1` calls with an API key, from Node,
 * never through the browser (so nothing here is seen by the network recorder).
 */
import { ENVIRONMENT_HEADER } from "@cpay/sdk/environment";

export interface HttpAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field by the caller
  readonly body: any;
}

async function call(url: string, init: RequestInit): Promise<HttpAnswer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text for the failure message
  }
  return { status: response.status, body };
}

/** A call to the admin listener, in the test environment unless named; throws unless the answer is 2xx. */
export async function admin(
  world: { adminUrl: string; adminToken: string },
  method: string,
  path: string,
  body?: unknown,
  environment: "test" | "live" = "test",
): Promise<HttpAnswer> {
  const answer = await call(`${world.adminUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${world.adminToken}`,
      "content-type": "application/json",
      [ENVIRONMENT_HEADER]: environment,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (answer.status >= 300)
    throw new Error(`admin ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** A `/v1` call with an API key, as curl would make it; the caller judges the status. */
export function v1(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return call(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/** Polls GET /v1/transfers/{id} until it is `confirmed` (throws on `failed` or after `timeoutMs`). */
export async function confirmedTransfer(
  baseUrl: string,
  apiKey: string,
  transferId: string,
  timeoutMs = 60_000,
): Promise<HttpAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await v1(baseUrl, apiKey, "GET", `/v1/transfers/${transferId}`);
    if (answer.body?.status === "confirmed") return answer;
    if (answer.body?.status === "failed" || Date.now() > deadline) {
      throw new Error(
        `transfer ${transferId} did not confirm: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}
