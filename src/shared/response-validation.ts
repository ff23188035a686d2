// Response schemas: documentation always, validation only where it finds bugs.
//
// Every route names its response schemas (zod) for the OpenAPI document. Validating every
// response against them cost the small endpoints about half their throughput (docs/performance.md,
// finding 1), and zod also stripped keys a handler returned beyond its schema, so a handler could
// lean on that. Now (LOADOUT_RESPONSE_VALIDATION):
// - `off` (the default, production): the schemas only document; a handler's object is sent as it
//   is, so every handler builds its answer field by field.
// - `strict` (the test app): the schema validates and, beyond zod's own check, the answer must be
//   exactly what the schema would produce: a key it does not name, or a value its transforms or
//   defaults would change, fails the response (500 in the test). What passes in the tests is then
//   byte for byte what production sends without validating.
//
// The schemas are swapped in the routes' response records after the app is composed and before
// the first request (Elysia builds a route's validators lazily from that same record object).
import type { AnyElysia } from "elysia";

type Standard = { "~standard": { vendor: string; version: 1; validate: (v: unknown) => unknown } };
type Issue = { message: string; path?: (string | number)[] };

/** The documented schema behind a swapped one (the OpenAPI mapper reads through it). */
export const DOCUMENTED = Symbol("documented response schema");

const isStandard = (v: unknown): v is Standard => !!v && typeof v === "object" && "~standard" in (v as object);

/**
 * Where `sent` (the handler's answer) differs from `parsed` (the schema's output): keys the schema
 * does not name, and values the schema changed (a transform or a default), which production,
 * sending `sent` as it is, would not apply. Key order does not matter; undefined is no key.
 */
function differences(sent: unknown, parsed: unknown, path: string, out: string[]): void {
  if (out.length >= 5) return;
  if (sent === parsed) return;
  if (sent === null || parsed === null || typeof sent !== "object" || typeof parsed !== "object") {
    out.push(`${path || "(root)"}: the schema changed the value`);
    return;
  }
  if (sent instanceof Date || parsed instanceof Date) {
    if (!(sent instanceof Date && parsed instanceof Date && sent.getTime() === parsed.getTime())) out.push(`${path}: the schema changed the value`);
    return;
  }
  if (Array.isArray(sent) !== Array.isArray(parsed)) {
    out.push(`${path || "(root)"}: the schema changed the value`);
    return;
  }
  if (Array.isArray(sent)) {
    const p = parsed as unknown[];
    if (sent.length !== p.length) out.push(`${path}: the schema changed the length`);
    for (let i = 0; i < sent.length && i < p.length; i++) differences(sent[i], p[i], `${path}[${i}]`, out);
    return;
  }
  const a = sent as Record<string, unknown>;
  const b = parsed as Record<string, unknown>;
  for (const k of Object.keys(a)) {
    if (a[k] === undefined) continue; // JSON drops it anyway
    const at = path ? `${path}.${k}` : k;
    if (!(k in b)) out.push(`key not in the response schema: ${at}`);
    else differences(a[k], b[k], at, out);
  }
  for (const k of Object.keys(b)) if (b[k] !== undefined && a[k] === undefined) out.push(`${path ? `${path}.${k}` : k}: added by the schema (a default)`);
}

function strict(schema: Standard): Standard {
  const inner = schema["~standard"];
  return {
    [DOCUMENTED]: schema,
    "~standard": {
      vendor: inner.vendor,
      version: 1,
      validate(value: unknown) {
        const r = inner.validate(value) as { value?: unknown; issues?: Issue[] } | Promise<unknown>;
        if (r instanceof Promise) throw new Error("response schemas must validate synchronously");
        if (r.issues) return r;
        const diff: string[] = [];
        differences(value, r.value, "", diff);
        if (diff.length) return { issues: diff.map((message) => ({ message })) };
        return r;
      },
    },
  } as unknown as Standard;
}

function passThrough(schema: Standard): Standard {
  return {
    [DOCUMENTED]: schema,
    "~standard": { vendor: schema["~standard"].vendor, version: 1, validate: (value: unknown) => ({ value }) },
  } as unknown as Standard;
}

/** Swaps every route's response schemas for the chosen mode; returns how many were swapped. */
export function applyResponseValidation(app: AnyElysia, mode: "off" | "strict"): number {
  const wrap = mode === "strict" ? strict : passThrough;
  let n = 0;
  const seen = new Set<object>();
  for (const route of app.routes as { hooks?: { response?: unknown } }[]) {
    const record = route.hooks?.response;
    if (!record || typeof record !== "object" || isStandard(record) || seen.has(record)) continue;
    seen.add(record);
    for (const [status, schema] of Object.entries(record as Record<string, unknown>)) {
      if (!isStandard(schema) || DOCUMENTED in schema) continue;
      (record as Record<string, unknown>)[status] = wrap(schema);
      n++;
    }
  }
  return n;
}

/** For the OpenAPI mapper: the zod schema behind a swapped one. */
export const documented = <T>(schema: T): T => ((schema as Record<symbol, unknown>)?.[DOCUMENTED] as T) ?? schema;

/**
 * A body serialised ahead (JSON text or its UTF-8 bytes, metrics text) from a handler that has
 * Elysia's `set`: the body itself is the handler's answer, with its content type, so Elysia makes
 * one Response of it. A returned Response is made again around its body stream (Elysia merges the
 * hooks' headers into a new one), which for a body of 100–200 KB costs more than the rest of the
 * request.
 */
export function sendAs(set: { headers: Record<string, unknown> | Headers }, type: string, body: string | Uint8Array): never {
  if (set.headers instanceof Headers) set.headers.set("content-type", type);
  else set.headers["content-type"] = type;
  // Typed as never: the route's response schema describes the objects the test app sends instead.
  return body as never;
}

/** The same for JSON, with the content type Elysia gives the objects it serialises. */
export const jsonText = (set: { headers: Record<string, unknown> | Headers }, body: string | Uint8Array): never =>
  sendAs(set, "application/json;charset=utf-8", body);
