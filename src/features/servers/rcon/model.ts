// Request and response schemas of RCON on a server (docs/rcon.md): its settings and their test,
// who is on, who was on, one player's history. (The server's own schemas: ../model.ts.)
import { z } from "zod";

export const rconBody = z.object({
  host: z
    .string({ error: "must be a string" })
    .transform((v) => v.trim())
    .refine((v) => v.length >= 1 && v.length <= 253 && /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(v), {
      message: "must be a host name or IP address",
    })
    .optional(),
  port: z.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be 1 to 65535").max(65535, "must be 1 to 65535").optional(),
  password: z.string({ error: "must be a string" }).max(200, { message: "must be at most 200 characters" }).optional(),
  /** Take the port and password (and the address, unless 0.0.0.0) of the server's config's `rcon` block. */
  from_config: z.boolean({ error: "must be a boolean" }).optional(),
});

export const rconTestView = z.union([z.object({ ok: z.literal(true), players: z.number().int() }), z.object({ ok: z.literal(false), error: z.string() })]);

export const playersView = z.object({
  players: z.array(z.object({ player_id: z.number().int(), uid: z.string(), name: z.string(), joined_at: z.string() })),
  count: z.number().int(),
  /** When the roster was read; null before the first read. */
  fetched_at: z.string().nullable(),
  /** Older than two polls (RCON down, or not yet read). */
  stale: z.boolean(),
});

export const sessionView = z.object({ uid: z.string(), name: z.string(), joined_at: z.string(), left_at: z.string().nullable(), seconds: z.number().int() });

export const sessionsQuery = z.object({
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  uid: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1, "must be 1 to 1000").max(1000, "must be 1 to 1000").optional(),
});

export const playerView = z.object({
  uid: z.string(),
  names: z.array(z.object({ name: z.string(), first_seen: z.string(), last_seen: z.string() })),
  sessions: z.array(sessionView),
  total_seconds: z.number().int(),
});

export const playerParams = z.object({ id: z.string(), uid: z.string().min(1).max(100) });
