/** A table's header row: one column header (`scope="col"`) per name, in order. */
export function ColumnHeads(props: { readonly names: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.names.map((name) => (
          <th scope="col" key={name}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
