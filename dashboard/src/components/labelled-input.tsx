/**
 * One labelled text input of a form, with its hint below, or its problem in place of the hint: the
 * input points at that line (`aria-describedby`) and says it is invalid, so a screen reader names
 * the problem where a sighted user sees it.
 */
export function LabelledInput(props: {
  id: string;
  label: string;
  hint: string;
  /** The problem to show instead of the hint; undefined: the value is fine. */
  problem: string | undefined;
  value: string;
  /** A secret: no autocomplete or spellcheck, shown in the secret style. */
  secret?: boolean;
  onInput: (value: string) => void;
}) {
  const { id, problem } = props;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        value={props.value}
        aria-invalid={problem === undefined ? undefined : "true"}
        aria-describedby={`${id}-hint`}
        onInput={(event) => props.onInput(event.currentTarget.value)}
        {...(props.secret === true ? { class: "secret", autocomplete: "off", spellcheck: false } : {})}
      />
      <small id={`${id}-hint`} class={problem === undefined ? "hint" : "error"}>
        {problem ?? props.hint}
      </small>
    </div>
  );
}
