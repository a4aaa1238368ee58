/**
 * A secret the service shows this once (an API key, a webhook's signing secret): it keeps only a
 * hash or a sealed copy, so the page says to copy it now. `children` names the secret.
 */
import type { ComponentChildren } from "preact";

export function ShownOnce(props: { readonly value: string; readonly children: ComponentChildren }) {
  return (
    <div class="notice" role="status">
      <p>{props.children}, shown this once (copy it now):</p>
      <p>
        <code class="secret-once" data-secret-once>
          {props.value}
        </code>
      </p>
    </div>
  );
}
