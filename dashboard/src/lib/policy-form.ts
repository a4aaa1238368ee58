/**
 * The spend-policy form's rules, the ones the API applies (sdk/src/program/policy-codec.ts and
 * active-hours.ts), checked before sending so a mistake is named next to its field. The API still
 * judges: its `400 invalid_policy` message is shown as it comes.
 */
export interface PolicyFormValues {
  daily_limit_usdg: string;
  per_transaction_limit_usdg: string;
  hitl_threshold_usdg: string;
  assets: string;
  allowed_recipients: string;
  active_hours: string;
  approval_window_seconds: string;
}

export const EMPTY_POLICY: PolicyFormValues = {
  daily_limit_usdg: "",
  per_transaction_limit_usdg: "",
  hitl_threshold_usdg: "",
  assets: "USDG",
  allowed_recipients: "",
  active_hours: "00:00-00:00",
  approval_window_seconds: "86400",
};

const LIMIT = /^(0|[1-9][0-9]{0,12})(\.[0-9]{1,6})?$/;
const WINDOW = /^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$/;
const MAX_ASSETS = 4;
const MAX_PATTERNS = 16;
const MAX_WINDOW_SECONDS = 7 * 86_400;

function list(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** The request body's policy and the per-field problems (empty when the form is valid). */
export function checkPolicy(values: PolicyFormValues): {
  policy: Record<string, unknown>;
  problems: Partial<Record<keyof PolicyFormValues, string>>;
} {
  const problems: Partial<Record<keyof PolicyFormValues, string>> = {};
  for (const field of ["daily_limit_usdg", "per_transaction_limit_usdg", "hitl_threshold_usdg"] as const) {
    if (!LIMIT.test(values[field].trim()))
      problems[field] = "a USDG amount with at most 6 decimals, such as 100 or 12.5";
  }
  const assets = list(values.assets);
  if (assets.length === 0) problems.assets = "at least one asset, such as USDG";
  else if (assets.length > MAX_ASSETS) problems.assets = `at most ${MAX_ASSETS} assets`;
  else if (new Set(assets).size !== assets.length) problems.assets = "an asset is listed twice";
  const recipients = list(values.allowed_recipients);
  if (recipients.length > MAX_PATTERNS) problems.allowed_recipients = `at most ${MAX_PATTERNS} recipients`;
  if (!WINDOW.test(values.active_hours.trim()))
    problems.active_hours = "HH:MM-HH:MM in UTC (equal ends: all day)";
  const window = Number(values.approval_window_seconds);
  if (!Number.isInteger(window) || window < 1 || window > MAX_WINDOW_SECONDS) {
    problems.approval_window_seconds = `whole seconds from 1 to ${MAX_WINDOW_SECONDS}`;
  }
  return {
    policy: {
      daily_limit_usdg: values.daily_limit_usdg.trim(),
      per_transaction_limit_usdg: values.per_transaction_limit_usdg.trim(),
      hitl_threshold_usdg: values.hitl_threshold_usdg.trim(),
      assets,
      allowed_recipients: recipients,
      active_hours: values.active_hours.trim(),
      approval_window_seconds: window,
    },
    problems,
  };
}
