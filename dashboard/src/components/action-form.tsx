/** A form whose submit runs `onSubmit` in the page instead of navigating away. */
import type { ComponentChildren } from "preact";

export function ActionForm(props: {
  readonly class?: string;
  readonly onSubmit: () => Promise<void>;
  readonly children: ComponentChildren;
}) {
  return (
    <form
      class={props.class}
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}
