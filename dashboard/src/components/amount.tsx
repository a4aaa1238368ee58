/**
 * One decrypted amount: `12.345678 USDG` in an element with `data-amount` (the same decimal), which
 * the browser suite waits on. Any other state says why no amount is shown.
 */
import { formatUnits } from "../lib/amounts";

export type AmountState =
  | { readonly kind: "amount"; readonly units: bigint }
  | { readonly kind: "locked" }
  | { readonly kind: "pending" }
  | { readonly kind: "none"; readonly why: string };

export function Amount(props: { state: AmountState }) {
  const { state } = props;
  switch (state.kind) {
    case "amount": {
      const decimal = formatUnits(state.units);
      return (
        <span class="amount" data-amount={decimal}>
          {decimal} USDG
        </span>
      );
    }
    case "locked":
      return <span class="muted">locked — unlock to read</span>;
    case "pending":
      return <span class="muted">decrypting…</span>;
    case "none":
      return <span class="muted">{state.why}</span>;
  }
}
