// A moment as every page shows it: in the reader's locale and time zone (dateTime of app/format),
// with the same moment in UTC on hover (its title) and machine-readable (<time dateTime>), so an
// operator comparing with a server log in UTC needs no arithmetic.
import { dateTime } from "../app/format";

const utc = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

/** "28 Nov 2026, 17:42:05 UTC" */
export const utcTitle = (iso: string) => `${utc.format(new Date(iso))} UTC`;

export function Time({ iso, fallback = "–" }: { iso: string | null | undefined; fallback?: string }) {
  if (!iso) return <>{fallback}</>;
  return (
    <time dateTime={iso} title={utcTitle(iso)}>
      {dateTime(iso)}
    </time>
  );
}
