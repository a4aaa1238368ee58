/**
 * A confirmation step as a modal `<dialog>` (focus moves into it, Escape cancels): approve, reject,
 * revoke and delete each ask once more, naming what will happen.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { ConfirmedAction } from "./use-confirmed";

export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      <div class="actions">
        <button type="button" class="primary" onClick={props.onConfirm}>
          Confirm
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

/** The question of a `useConfirmed` step while it is asked: its title and what happens, from its item. */
export function ConfirmStep<T>(props: {
  step: ConfirmedAction<T>;
  title: string | ((item: T) => string);
  children: (item: T) => ComponentChildren;
}) {
  const { step } = props;
  if (step.asking === null) return null;
  const item = step.asking;
  return (
    <ConfirmDialog
      title={typeof props.title === "string" ? props.title : props.title(item)}
      onCancel={step.cancel}
      onConfirm={() => void step.confirm()}
    >
      {props.children(item)}
    </ConfirmDialog>
  );
}
