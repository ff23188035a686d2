// Request schemas (body, query, path parameters, headers) refuse with a 400 {error} of our own,
// never through Elysia's ValidationError: its constructor serialises the whole rejected value
// into its message (JSON.stringify with two-space indentation), so a large deeply nested body
// blocked the process (figures in docs/operations.md "Security and limits"). Its `all` getter
// validates the value a second time as well.
//
// Each route's request schemas get, before the first request (Elysia builds a route's validators
// lazily and calls `schema["~standard"].validate` then), a Standard Schema `validate` that runs
// zod's and throws AppError(400, first issue) instead of returning the issues. The error plugin
// renders an AppError as it is: nothing looks at the rejected value again. The zod schema object
// itself stays the same (the OpenAPI mapper reads it); only its `~standard` entry is replaced.
import type { AnyElysia } from "elysia";
import { AppError } from "./errors";
import { BARE_MESSAGES, INVALID_WORKSHOP_ID } from "./schemas";

type Issue = { message?: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };
type Result = { value?: unknown; issues?: ReadonlyArray<Issue> };
type StandardProps = { vendor: string; version: 1; validate: (v: unknown) => Result | Promise<Result>; types?: unknown };
type Standard = { "~standard": StandardProps };

const REFUSES_WITH_APP_ERROR = Symbol("request schema refuses with AppError");
const REQUEST_PARTS = ["body", "query", "params", "headers"] as const;

const isStandard = (v: unknown): v is Standard => !!v && typeof v === "object" && "~standard" in (v as object);

/**
 * The one wording of a validation failure (docs/architecture.md "Errors"): `field: message` for the first
 * failing field, the bare message where the field adds nothing (`invalid workshop ID`, or a
 * failure of the whole value).
 */
export function issueMessage(issue: { path?: string; message?: string } | undefined): string {
  if (!issue) return "invalid request";
  const message = issue.message || "invalid value";
  if (BARE_MESSAGES.has(message) || !issue.path || issue.path === "root") return message;
  return `${issue.path}: ${message}`;
}

const pathOf = (issue: Issue) =>
  (issue.path ?? []).map((p) => (typeof p === "object" && p !== null && "key" in p ? String(p.key) : String(p))).join(".");

/** The 400 for a request that failed its schema, with the code a client may react to. */
export function requestRefusal(issue: { path?: string; message?: string } | undefined): AppError {
  const message = issueMessage(issue);
  return new AppError(message === INVALID_WORKSHOP_ID ? "invalid_workshop_id" : "request.invalid", message);
}

function refuse(result: Result): Result {
  const first = result.issues?.[0];
  if (!first) return result;
  throw requestRefusal({ path: pathOf(first), message: first.message });
}

/** Replaces the schema's Standard Schema entry (once per schema object, however many routes share it). */
function refuseWithAppError(schema: Standard): boolean {
  const s = schema as Standard & { [REFUSES_WITH_APP_ERROR]?: true };
  if (s[REFUSES_WITH_APP_ERROR]) return false;
  const inner = s["~standard"];
  const validate = (value: unknown) => {
    const r = inner.validate(value);
    return r instanceof Promise ? r.then(refuse) : refuse(r);
  };
  Object.defineProperty(s, "~standard", { value: { vendor: inner.vendor, version: 1, validate, types: inner.types }, configurable: true, enumerable: false });
  Object.defineProperty(s, REFUSES_WITH_APP_ERROR, { value: true });
  return true;
}

/** Installs the refusal on every route's request schemas; returns how many schemas it changed. */
export function applyRequestValidation(app: AnyElysia): number {
  let n = 0;
  for (const route of app.routes as { hooks?: Partial<Record<(typeof REQUEST_PARTS)[number], unknown>> }[]) {
    for (const part of REQUEST_PARTS) {
      const schema = route.hooks?.[part];
      if (isStandard(schema) && refuseWithAppError(schema)) n++;
    }
  }
  return n;
}

/** Whether a route's request schema refuses with AppError (the sweep test holds every route to it). */
export const refusesWithAppError = (schema: unknown) => isStandard(schema) && !!(schema as Record<symbol, unknown>)[REFUSES_WITH_APP_ERROR];
