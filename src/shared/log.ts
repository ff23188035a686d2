/** JSON lines on stdout, one object per event. Never log secrets or credentials. */
export type LogLevel = "debug" | "info" | "warn" | "error";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/**
 * Lines to stdout, batched: the lines of one turn of the event loop go out in one write (a busy
 * server logs a line per request; one write() each was a measurable part of a small request's
 * cost). Errors and warnings are written at once with what is pending, and whatever is pending
 * is written when the process exits; a SIGKILL can lose the lines of the last turn only.
 */
export function batchedStdout(out: { write(s: string): unknown } = process.stdout): (line: string, urgent?: boolean) => void {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const s = pending;
    pending = "";
    out.write(s);
  };
  process.on("exit", flush);
  return (line, urgent) => {
    pending += line + "\n";
    if (urgent || pending.length > 65_536) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

let stdoutWriter: ((line: string, urgent?: boolean) => void) | null = null;
const defaultWrite = (line: string, urgent?: boolean) => (stdoutWriter ??= batchedStdout())(line, urgent);

export function createLogger(
  level: LogLevel = "info",
  base: Record<string, unknown> = {},
  write: (line: string, urgent?: boolean) => void = defaultWrite,
): Logger {
  const min = order[level];
  const baseFlat = isFlat(base);
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < min) return;
    const entry = { time: isoNow(), level: lvl, msg, ...base, ...fields };
    // The replacer only turns Error objects into JSON; a line of plain values (the request line,
    // once per request) has none, and JSON.stringify without a replacer writes the same text in
    // half the time.
    write(baseFlat && isFlat(fields) ? JSON.stringify(entry) : JSON.stringify(entry, errorReplacer), order[lvl] >= order.warn);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}

/** No value is an object (so none is an Error, at any depth). */
function isFlat(fields: Record<string, unknown> | undefined): boolean {
  for (const k in fields) {
    const v = fields[k];
    if (typeof v === "object" && v !== null) return false;
  }
  return true;
}

/** `new Date().toISOString()`, formatted once per millisecond (a busy server logs several lines in one). */
let isoMs = Number.NaN;
let iso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** A logger that keeps lines in memory (tests assert on what was logged). */
export function createMemoryLogger(level: LogLevel = "debug"): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger(level, {}, (l) => lines.push(l));
  return Object.assign(logger, { lines });
}
