// The building blocks of the pages' search params (zod schemas the router runs as validators).
// A link someone edited by hand never breaks a page: a value that does not fit is dropped (or a
// page number becomes 1), as if it were not there. The router parses `?page=2` to the number 2
// and `?q=123` to 123, so texts take numbers too. zod/mini, not zod: these run in the first
// chunk, and the tree-shakable build adds a few KB where the classic one adds ~25 KB gzip.
import * as z from "zod/mini";

/** A text; empty is none. */
export const text = () => z.catch(z.optional(z.pipe(z.union([z.string(), z.pipe(z.number(), z.transform(String))]), z.string().check(z.minLength(1)))), undefined);

/** A page number or a count: a positive integer, 1 when the URL holds something else. */
export const positiveInt = () => z.optional(z.catch(z.coerce.number<number>().check(z.refine(Number.isInteger), z.positive()), 1));

/** One of a few names. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.catch(z.optional(z.enum(values)), undefined);

/** A search with only a one-time token (magic link, e-mail verification, a list's suggestion link). */
export const tokenSearch = z.object({ token: text() });
