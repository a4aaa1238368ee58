/**
 * What `fetch_paid` tells the model of an HTTP response: the status, the headers a caller acts on
 * (the type and size of the body, a redirect, when to retry) and the body as text, cut at
 * MAX_BODY_BYTES so one answer cannot flood the model's context. The body is read only up to the
 * cut: a large download is not pulled through the agent's host.
 */

/** The most body bytes an answer carries. */
export const MAX_BODY_BYTES = 32_768;

const HEADERS_OF_INTEREST = ["content-type", "content-length", "location", "retry-after"] as const;

export interface ResponseSummary {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The body went on past MAX_BODY_BYTES and was cut there. */
  readonly body_truncated: boolean;
}

/** Reads `response` (its body up to the cut) into its summary. */
export async function responseSummary(response: Response): Promise<ResponseSummary> {
  const headers: Record<string, string> = {};
  for (const name of HEADERS_OF_INTEREST) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const { text, truncated } = await readCapped(response);
  return { status: response.status, headers, body: text, body_truncated: truncated };
}

/** The body as UTF-8 text, at most MAX_BODY_BYTES of it; the rest is not read. */
export async function readCapped(response: Response): Promise<{ text: string; truncated: boolean }> {
  if (response.body === null) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { text: new TextDecoder().decode(bytes.subarray(0, MAX_BODY_BYTES)), truncated };
}
