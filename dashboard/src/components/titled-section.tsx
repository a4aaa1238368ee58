import type { ComponentChildren } from "preact";

/** A section named by its heading (`aria-labelledby` on `<id>-title`), as assistive technology lists it. */
export function TitledSection(props: {
  id: string;
  title: string;
  class?: string;
  children: ComponentChildren;
}) {
  const titleId = `${props.id}-title`;
  return (
    <section class={props.class} aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </section>
  );
}
