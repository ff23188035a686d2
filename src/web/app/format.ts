// Numbers, sizes and dates as people read them (local time, the browser's locale). Each Intl
// formatter is made on first use: made when this module loads (in the first chunk) they cost a
// throttled phone ~70 ms before anything showed (docs/performance.md "The web app").
const once = <T>(make: () => T) => {
  let v: T | undefined;
  return () => (v ??= make());
};
const nf = once(() => new Intl.NumberFormat());
export const num = (n: number | null | undefined) => (n === null || n === undefined ? "–" : nf().format(n));

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return "–";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

const df = once(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }));
const dtf = once(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }));
export const date = (iso: string | null | undefined) => (iso ? df().format(new Date(iso)) : "–");
export const dateTime = (iso: string | null | undefined) => (iso ? dtf().format(new Date(iso)) : "–");

/** Only http(s) links are links: anything else from outside is shown as text. */
export const safeHref = (url: string | null | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : undefined;
  } catch {
    return undefined;
  }
};
/** "1 mod", "4 mods", "1,000 mods". */
export const count = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

/** A workshop tag as every page names it: "SCENARIOS_MP" → "scenarios mp" (chips, the filter, "tagged …"). */
export const tagLabel = (tag: string) => tag.replace(/_/g, " ").toLowerCase();

const compact = once(() => new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 }));
/** A large count in a few characters: 31,200 → "31K". */
export const short = (n: number) => compact().format(n);

/** A duration in words: "120 ms", "45 s", "3 min 20 s", "2 h 5 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
