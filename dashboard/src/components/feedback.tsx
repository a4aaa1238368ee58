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
