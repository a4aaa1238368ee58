/** Display helpers for the API's ISO timestamps (shown in the holder's locale, UTC kept in titles). */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return "never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** "2 h 5 min left", "expired": how long before `iso` (an approval's expiry). */
export function timeLeft(iso: string, now: number = Date.now()): string {
  const ms = new Date(iso).getTime() - now;
  if (!(ms > 0)) return "expired";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "less than a minute left";
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min left` : `${minutes} min left`;
}
