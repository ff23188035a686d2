// Request and response schemas of moderation (docs/rcon.md "Moderation"): kicks, bans, moderators
// and the log. (The server's own schemas: ../model.ts.)
import { z } from "zod";

export const kickParams = z.object({ id: z.string(), playerId: z.coerce.number({ error: "must be a player number" }).int("must be a player number").min(1, "must be a player number") });
export const kickBody = z
  .object({ reason: z.string({ error: "must be a string" }).max(500, { message: "must be at most 500 characters" }).optional() })
  .optional()
  .transform((v) => v ?? {});

/** 10 years: longer is what `0` (permanent) is for. */
const MAX_BAN_S = 315_360_000;
export const banBody = z
  .object({
    uid: z.string({ error: "must be a string" }).min(1).max(100).optional(),
    player_id: z.number({ error: "must be a player number" }).int("must be a player number").min(1, "must be a player number").optional(),
    duration_s: z
      .number({ error: "duration_s: how long, in seconds (0 = permanent)" })
      .int("must be a whole number of seconds")
      .min(0, "must be 0 (permanent) or more seconds")
      .max(MAX_BAN_S, `must be at most ${MAX_BAN_S} seconds (10 years); 0 bans for good`),
    reason: z.string({ error: "reason: say why" }).max(500, { message: "must be at most 500 characters" }),
    scope: z.enum(["server", "all"], { error: "must be server or all" }).optional().default("server"),
  })
  .refine((b) => (b.uid === undefined) !== (b.player_id === undefined), { message: "uid or player_id: one of them, to say who" });

export const banView = z.object({
  id: z.string(),
  uid: z.string(),
  name: z.string(),
  reason: z.string(),
  /** 0: permanent. */
  duration_s: z.number().int(),
  expires_at: z.string().nullable(),
  /** `server`: the one server; `all`: every server of the owner with RCON. */
  scope: z.enum(["server", "all"]),
  server_ids: z.array(z.string()),
  created_by: z.string().nullable(),
  /** Who gave it, by their display name (null: the account is gone). */
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  lifted_at: z.string().nullable(),
  active: z.boolean(),
});

export const bansQuery = z.object({ active: z.stringbool({ error: "must be true or false" }).optional() });

export const moderatorBody = z
  .object({ user_id: z.string().min(1).max(100).optional(), email: z.string().min(3).max(320).optional() })
  .refine((b) => b.user_id !== undefined || b.email !== undefined, { message: "user_id or email: say who" });
export const moderatorView = z.object({ user_id: z.string(), display_name: z.string(), added_at: z.string() });
/** GET /servers/moderated: the servers the caller moderates (GET /servers/:id stays the owner's). */
export const moderatedServerView = z.object({ id: z.string(), name: z.string(), role: z.literal("moderator") });

export const moderationLogView = z.object({
  id: z.string(),
  action: z.enum(["kick", "ban", "unban", "reapplied", "expired"]),
  actor: z.union([z.object({ user_id: z.string(), display_name: z.string() }), z.literal("loadout")]),
  uid: z.string().nullable(),
  name: z.string().nullable(),
  reason: z.string().nullable(),
  duration_s: z.number().int().nullable(),
  /** "ok", or what went wrong (the server's answer). */
  result: z.string(),
  created_at: z.string(),
});
