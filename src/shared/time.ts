/** Timestamps are stored as epoch ms and sent as ISO 8601 UTC with milliseconds. */
export const toIso = (ms: number): string => new Date(ms).toISOString();
export const toIsoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());

export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** Parses durations such as `7d`, `12h`, `30m`, `45s` or a number of seconds; returns seconds. */
export function parseDuration(value: string): number | null {
  const m = /^(\d+)\s*([smhdw]?)$/.exec(value.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2] as "" | "s" | "m" | "h" | "d" | "w"];
  return n > 0 ? n * unit : null;
}
