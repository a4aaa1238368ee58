/**
 * The fee reserve's balance as Prometheus text (exposition format 0.0.4), one series per configured
 * environment, for the admin listener's `GET /metrics`: what an operator's monitoring alerts on
 * (`cpay_fee_reserve_low == 1`, or a reading growing old while the cluster is unreachable). The
 * numbers are the reserve's public on-chain balance; the admin token still guards the listener.
 */
import type { ServiceContext } from "../core/service-context";
import { lastReserveReading, reserveWarnLamportsOf } from "./reserve-balance-watch";

export function reserveMetricsText(
  environments: { readonly test: ServiceContext; readonly live: ServiceContext | null },
  now: number,
): string {
  const contexts = [environments.test, ...(environments.live === null ? [] : [environments.live])];
  const series = (name: string, help: string, value: (service: ServiceContext) => string | null) => {
    const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`];
    for (const service of contexts) {
      const measured = value(service);
      if (measured !== null) lines.push(`${name}{environment="${service.environment}"} ${measured}`);
    }
    return lines.join("\n");
  };
  return `${[
    series(
      "cpay_fee_reserve_lamports",
      "The fee reserve's balance at its last reading.",
      (service) => lastReserveReading(service)?.lamports.toString() ?? null,
    ),
    series(
      "cpay_fee_reserve_warn_lamports",
      "RESERVE_WARN_LAMPORTS: below it the reserve is low.",
      (service) => reserveWarnLamportsOf(service).toString(),
    ),
    series("cpay_fee_reserve_low", "1 while the last reading was below the warning line.", (service) => {
      const reading = lastReserveReading(service);
      return reading === null ? null : reading.low ? "1" : "0";
    }),
    series("cpay_fee_reserve_reading_age_seconds", "Seconds since the last reading answered.", (service) => {
      const reading = lastReserveReading(service);
      return reading === null ? null : ((now - reading.readAt) / 1000).toFixed(3);
    }),
  ].join("\n")}\n`;
}
