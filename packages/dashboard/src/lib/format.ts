const DAY_MS = 86_400_000;

/** "3 days ago", "today", or the date; a title attribute can carry the exact time. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const days = Math.floor((now - Date.parse(iso)) / DAY_MS);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 60) return `${days} days ago`;
  return new Date(iso).toLocaleDateString();
}

export const dateTime = (iso: string) => new Date(iso).toLocaleString();

export const daysBetween = (from: string, now = Date.now()) => Math.floor((now - Date.parse(from)) / DAY_MS);
