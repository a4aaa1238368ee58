/** The spend-policy fields, each labelled and with its problem announced beside it. */
import type { PolicyFormValues } from "../lib/policy-form";
import { LabelledInput } from "./labelled-input";

const FIELDS: { key: keyof PolicyFormValues; label: string; hint: string }[] = [
  { key: "daily_limit_usdg", label: "Daily limit (USDG)", hint: "the most it may spend per UTC day" },
  {
    key: "per_transaction_limit_usdg",
    label: "Per-transaction limit (USDG)",
    hint: "the most one transfer may be",
  },
  {
    key: "hitl_threshold_usdg",
    label: "Approval threshold (USDG)",
    hint: "transfers above this wait for your approval",
  },
  { key: "assets", label: "Assets", hint: "comma-separated, e.g. USDG" },
  {
    key: "allowed_recipients",
    label: "Allowed recipients",
    hint: "comma-separated @handles or addresses; empty: anyone",
  },
  { key: "active_hours", label: "Active hours (UTC)", hint: "HH:MM-HH:MM; 00:00-00:00 is all day" },
  {
    key: "approval_window_seconds",
    label: "Approval window (seconds)",
    hint: "how long a held transfer waits",
  },
];

export function PolicyFields(props: {
  idPrefix: string;
  values: PolicyFormValues;
  problems: Partial<Record<keyof PolicyFormValues, string>>;
  onChange: (values: PolicyFormValues) => void;
}) {
  return (
    <>
      {FIELDS.map((field) => {
        const problem = props.problems[field.key];
        return (
          <LabelledInput
            key={field.key}
            id={`${props.idPrefix}-${field.key}`}
            label={field.label}
            hint={field.hint}
            problem={problem === undefined ? undefined : `Must be ${problem}.`}
            value={props.values[field.key]}
            onInput={(value) => props.onChange({ ...props.values, [field.key]: value })}
          />
        );
      })}
    </>
  );
}
