import type { ComponentChildren } from "preact";
import { navigate } from "../router";

/** An in-app link: a real `<a href>` (middle-click, screen readers) that routes without a reload. */
export function Link(props: {
  href: string;
  children: ComponentChildren;
  current?: boolean;
  class?: string;
}) {
  return (
    <a
      href={props.href}
      class={props.class}
      aria-current={props.current === true ? "page" : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
