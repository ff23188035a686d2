// The building blocks of the pages' search params, which the router validates with (Standard
// Schema, the interface it reads). A link someone edited by hand never breaks a page: a value
// that does not fit is dropped (or a page number becomes 1), as if it were not there. The router
// parses `?page=2` to the number 2 and `?q=123` to 123, so texts take numbers too. No schema
// library: these run in the first chunk, for every link the page draws, and zod/mini cost the
// first page ~7 KB gzip and ~90 ms of a throttled phone's main thread (docs/performance.md).

/** One search param: what the URL holds → its value, or undefined (left out). */
export type Param<T> = (v: unknown) => T | undefined;

/** A text; empty is none. */
export const text = (): Param<string> => (v) => (typeof v === "string" ? v || undefined : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined);

/** A page number or a count: a positive integer, 1 when the URL holds something else. */
export const positiveInt = (): Param<number> => (v) => {
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : typeof v === "string" || typeof v === "boolean" || v === null ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : 1;
};

/** One of a few names. */
export const oneOf =
  <const T extends readonly string[]>(values: T): Param<T[number]> =>
  (v) =>
    typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T[number]) : undefined;

/** Any non-empty name, typed as `T`: the page maps one it does not know to its first (a tab). */
export const anyName =
  <T extends string>(): Param<T> =>
  (v) =>
    typeof v === "string" && v !== "" ? (v as T) : undefined;

/** A param's value only when it also passes `ok`. */
export const where =
  <T>(param: Param<T>, ok: (v: T) => boolean): Param<T> =>
  (v) => {
    const x = param(v);
    return x !== undefined && ok(x) ? x : undefined;
  };

type Shape = Record<string, Param<unknown>>;
/** The search object a shape gives: every param optional. */
export type SearchOf<S extends Shape> = { [K in keyof S]?: Exclude<ReturnType<S[K]>, undefined> };

/** A page's search params: each key's param; other keys are dropped. */
export interface Search<S extends Shape> {
  readonly shape: S;
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: "loadout";
    readonly validate: (v: unknown) => { readonly value: SearchOf<S> };
    readonly types?: { readonly input: SearchOf<S>; readonly output: SearchOf<S> };
  };
}

export function search<S extends Shape>(shape: S): Search<S> {
  const keys = Object.keys(shape);
  const validate = (v: unknown) => {
    const input = (v !== null && typeof v === "object" ? v : {}) as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    for (const k of keys) {
      const x = shape[k]!(input[k]);
      if (x !== undefined) value[k] = x;
    }
    return { value: value as SearchOf<S> };
  };
  return { shape, "~standard": { version: 1, vendor: "loadout", validate } };
}

/** The search type of a page's params. */
export type SearchType<T> = T extends Search<infer S> ? SearchOf<S> : never;

/** A search with only a one-time token (magic link, e-mail verification, a list's suggestion link). */
export const tokenSearch = search({ token: text() });
