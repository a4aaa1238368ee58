/** Error, progress and empty states, announced to assistive technology. */
import { ApiCallError } from "../api/client";

export function messageOf(error: unknown): string {
  if (error instanceof ApiCallError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorMessage(props: { error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="error" role="alert">
      {messageOf(props.error)}
    </p>
  );
}

export function Progress(props: { label: string }) {
  return (
    <p class="progress" role="status">
      <span class="spinner" aria-hidden="true" />
      {props.label}
    </p>
  );
}

/** A user action's state (useAction): what it says while it runs, then how it last failed. */
export function ActionFeedback(props: { busy: string | null; error: unknown }) {
  return (
    <>
      {props.busy !== null ? <Progress label={props.busy} /> : null}
      <ErrorMessage error={props.error} />
    </>
  );
}

/** A first load's state (useAsync): how it failed, or `label` until its data first arrives. */
export function LoadFeedback(props: {
  load: { readonly data: unknown; readonly error: unknown; readonly loading: boolean };
  label: string;
}) {
  const { load } = props;
  return (
    <>
      <ErrorMessage error={load.error} />
      {load.loading && load.data === null ? <Progress label={props.label} /> : null}
    </>
  );
}
