/**
 * A configuration that carries secrets (an agent's key, its signer and confidential secrets), shown
 * this once with a copy button: the service keeps none of them in a form it could show again, and
 * the page forgets them when it moves on. Copying goes to the system clipboard only.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";

export function ConfigShownOnce(props: { readonly text: string; readonly children: ComponentChildren }) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div class="notice" role="status">
      <p>{props.children}, shown this once (copy it now):</p>
      <pre class="config">
        <code data-mcp-config>{props.text}</code>
      </pre>
      <div class="actions">
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy configuration
        </button>
        {copied === "copied" ? <span data-copied>Copied to the clipboard.</span> : null}
        {copied === "failed" ? (
          <span class="error">The clipboard refused it: select the text above and copy it.</span>
        ) : null}
      </div>
    </div>
  );
}
