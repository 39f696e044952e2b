// Change-feed windows: the register answers VERAENDERUNGEN* for at most 7 days per request, so a
// range is cut into consecutive windows of at most that length.

export const MAX_WINDOW_DAYS = 7;

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Inclusive windows covering [from, to], each spanning at most MAX_WINDOW_DAYS days. */
export function changeWindows(from: string, to: string, maxDays = MAX_WINDOW_DAYS): Array<{ from: string; to: string }> {
  const windows: Array<{ from: string; to: string }> = [];
  for (let start = from; start <= to; start = addDays(start, maxDays)) {
    const end = addDays(start, maxDays - 1);
    windows.push({ from: start, to: end < to ? end : to });
  }
  return windows;
}

export { addDays };
