/**
 * Near misses of a well-formed bearer secret `value` (bearer-secret.ts), which every reader must
 * refuse: empty, its prefix alone, a character more, a character less.
 */
export function nearMisses(value: string): string[] {
  return ["", value.slice(0, -43), `${value}x`, value.slice(0, -1)];
}
