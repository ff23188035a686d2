// Reusable zod pieces for request schemas. Messages read as "name: must be 1 to 100
// characters" once the error renderer prefixes the field name (docs/architecture.md "Errors").
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./errors";

export const INVALID_WORKSHOP_ID = "invalid workshop ID";

/** Validation messages that are sent without the "field: " prefix. */
export const BARE_MESSAGES = new Set<string>([INVALID_WORKSHOP_ID, "invalid JSON"]);

export const WORKSHOP_ID_RE = /^[0-9A-F]{16}$/;

/** 16 hex characters in any case, normalised to upper case. */
export const workshopId = z
  .string({ error: INVALID_WORKSHOP_ID })
  .transform((v) => v.trim().toUpperCase())
  .refine((v) => WORKSHOP_ID_RE.test(v), { message: INVALID_WORKSHOP_ID });

export const normaliseWorkshopId = (v: string): string | null => {
  const up = v.trim().toUpperCase();
  return WORKSHOP_ID_RE.test(up) ? up : null;
};

/** C0 control characters (NUL, newlines, escape …) and DEL: never part of a name. */
export const CONTROL_CHARS_RE = /[\u0000-\u001f\u007f]/;

/** Names: 1 to 100 characters after trimming, no control characters. */
export const name = z
  .string({ error: "must be a string" })
  .transform((v) => v.trim())
  .refine((v) => v.length >= 1 && v.length <= 100, { message: "must be 1 to 100 characters", abort: true })
  .refine((v) => !CONTROL_CHARS_RE.test(v), { message: "must not contain control characters" });

/** Descriptions, reasons, notes: 0 to 2000 characters. */
export const text2000 = z.string({ error: "must be a string" }).max(2000, { message: "must be at most 2000 characters" });

export const uuid = z.string({ error: "must be a UUID" }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
  message: "must be a UUID",
});

export const email = z
  .string({ error: "must be an e-mail address" })
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.email({ message: "must be an e-mail address" }));

export const password = z
  .string({ error: "must be a string" })
  .min(8, { message: "must be 8 to 128 characters" })
  .max(128, { message: "must be 8 to 128 characters" });

/** Query-string boolean: 1/0/true/false/yes/no. */
export const queryBool = z.stringbool({ truthy: ["1", "true", "yes", "on"], falsy: ["0", "false", "no", "off"] });

/** Page/limit query with a default and a maximum. */
export const pageQuery = (defLimit: number, maxLimit: number) =>
  z.object({
    page: z.coerce.number({ error: "must be an integer" }).int().min(1, { message: "must be at least 1" }).default(1),
    limit: z.coerce
      .number({ error: "must be an integer" })
      .int()
      .min(1, { message: `must be 1 to ${maxLimit}` })
      .max(maxLimit, { message: `must be 1 to ${maxLimit}` })
      .default(defLimit),
  });

export const errorBody = z
  .object({
    error: z.string().describe("What went wrong, for people (the words may change)"),
    code: z
      .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
      .describe(`What went wrong, for programs: a stable code, always with the same status. ${Object.entries(ERROR_CODES).map(([c, e]) => `${c} (${e.status}: ${e.meaning})`).join("; ")}`),
  })
  .meta({ description: "Error" });
export const okBody = z.object({ ok: z.boolean() });
