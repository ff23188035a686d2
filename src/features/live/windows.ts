// The live feature's spans of time.
export const HOUR = 3_600_000;
export const THREE_HOURS = 3 * HOUR;
export const DAY = 24 * HOUR;
/** Raw 5-minute points are kept (and read) for 24 hours. */
export const RAW_WINDOW = DAY;
/** A server counts as online while its last sighting is at most this old. */
export const ONLINE_WINDOW = HOUR;
