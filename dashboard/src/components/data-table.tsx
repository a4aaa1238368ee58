/** A table named by its caption, one column header (`scope="col"`) per column, then its rows. */
import type { ComponentChildren } from "preact";

export function DataTable(props: {
  readonly caption: ComponentChildren;
  readonly columns: readonly string[];
  readonly children: ComponentChildren;
}) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((name) => (
            <th scope="col" key={name}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}
