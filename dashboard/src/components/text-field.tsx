/** A labelled one-line text input showing `value`; each edit goes to `onValue`. */
export function TextField(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly maxLength?: number;
  readonly placeholder?: string;
  readonly inputMode?: "decimal";
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
    </>
  );
}
