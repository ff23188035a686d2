// The one place that reads the environment. Every LOADOUT_* variable (README.md and the
// feature docs list them), validated at start: a bad value stops the start with one line naming the
// variable.
import { z } from "zod";
import { Cron } from "croner";
import { parseDuration } from "./shared/time";

const bool = (name: string, def: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], { error: `${name} must be true or false` })
    .optional()
    .transform((v) => (v === undefined ? def : ["true", "1", "yes", "on"].includes(v)));

const url = (name: string) =>
  z
    .string()
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === "http:" || u.protocol === "https:";
      } catch {
        return false;
      }
    }, `${name} must be an http(s) URL`)
    .transform((v) => v.replace(/\/+$/, ""));

const cron = (name: string, def: string) =>
  z
    .string()
    .default(def)
    .refine((v) => v.trim().split(/\s+/).length >= 5 && v.trim().split(/\s+/).length <= 7, `${name} must be a cron expression`);

/** Requests a minute; 0 turns the limit off. */
const perMinute = (name: string, def: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number of requests a minute (0 = off)` })
    .int(`${name} must be a whole number of requests a minute (0 = off)`)
    .min(0, `${name} must be 0 (off) or more`)
    .max(1_000_000, `${name} must be at most 1000000`)
    .default(def);

/** A size in MiB, whole, from `min` to `max`. */
const mebibytes = (name: string, def: number, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number of MiB from ${min} to ${max}` })
    .int(`${name} must be a whole number of MiB from ${min} to ${max}`)
    .min(min, `${name} must be a whole number of MiB from ${min} to ${max}`)
    .max(max, `${name} must be a whole number of MiB from ${min} to ${max}`)
    .default(def);

const optionalNonEmpty = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v : undefined));

export const configSchema = z.object({
  LOADOUT_PORT: z.coerce
    .number({ error: "LOADOUT_PORT must be a port number" })
    .int("LOADOUT_PORT must be a whole number from 0 to 65535")
    .min(0, "LOADOUT_PORT must be a whole number from 0 to 65535")
    .max(65535, "LOADOUT_PORT must be a whole number from 0 to 65535")
    .default(8080),
  LOADOUT_HOST: z.string().min(1).default("0.0.0.0"),
  LOADOUT_DATA_DIR: z.string().min(1).default("./data"),
  LOADOUT_BASE_URL: url("LOADOUT_BASE_URL").default("http://localhost:8080"),
  LOADOUT_ADMIN_EMAIL: optionalNonEmpty.pipe(z.email("LOADOUT_ADMIN_EMAIL must be an e-mail address").optional()),
  LOADOUT_ADMIN_PASSWORD: optionalNonEmpty.pipe(
    z.string().min(8, "LOADOUT_ADMIN_PASSWORD must be 8 to 128 characters").max(128).optional(),
  ),
  LOADOUT_REGISTRATION: z
    .enum(["open", "approval", "closed"], { error: "LOADOUT_REGISTRATION must be open, approval or closed" })
    .default("approval"),
  LOADOUT_JWT_SECRET: optionalNonEmpty.pipe(z.string().min(16, "LOADOUT_JWT_SECRET must be at least 16 characters").optional()),
  LOADOUT_JWT_TTL: z
    .string()
    .default("7d")
    .transform((v, ctx) => {
      const s = parseDuration(v);
      if (s === null) {
        ctx.addIssue({ code: "custom", message: "LOADOUT_JWT_TTL must be a duration such as 7d, 12h or 3600" });
        return z.NEVER;
      }
      return s;
    }),
  LOADOUT_SECRET_KEY: optionalNonEmpty.pipe(
    z
      .string()
      .refine((v) => Buffer.from(v, "base64").length === 32, "LOADOUT_SECRET_KEY must be 32 bytes in base64")
      .optional(),
  ),
  LOADOUT_SMTP_URL: optionalNonEmpty.pipe(
    z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v), "LOADOUT_SMTP_URL must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  LOADOUT_MAIL_FROM: z.string().default("Loadout <loadout@localhost>"),
  LOADOUT_DISCORD_CLIENT_ID: optionalNonEmpty,
  LOADOUT_DISCORD_CLIENT_SECRET: optionalNonEmpty,
  LOADOUT_DISCORD_API_URL: url("LOADOUT_DISCORD_API_URL").default("https://discord.com/api"),
  LOADOUT_DISCORD_AUTHORIZE_URL: url("LOADOUT_DISCORD_AUTHORIZE_URL").default("https://discord.com/oauth2/authorize"),
  LOADOUT_WORKSHOP_URL: url("LOADOUT_WORKSHOP_URL").default("https://reforger.armaplatform.com"),
  LOADOUT_WORKSHOP_RPS: z.coerce
    .number({ error: "LOADOUT_WORKSHOP_RPS must be a number" })
    .positive("LOADOUT_WORKSHOP_RPS must be more than 0 requests a second")
    .max(1000, "LOADOUT_WORKSHOP_RPS must be at most 1000 requests a second")
    .default(2),
  /** Sent to the workshop; default `Loadout/<version> (+<LOADOUT_BASE_URL>)`. */
  LOADOUT_WORKSHOP_USER_AGENT: optionalNonEmpty,
  LOADOUT_BATTLEMETRICS_URL: url("LOADOUT_BATTLEMETRICS_URL").default("https://api.battlemetrics.com"),
  LOADOUT_BATTLEMETRICS_TOKEN: optionalNonEmpty,
  LOADOUT_SCHEDULES: z.enum(["on", "off"], { error: "LOADOUT_SCHEDULES must be on or off" }).default("on"),
  /**
   * child: `serve` runs the workshop crawl's jobs in a short-lived child process of the same
   * executable, started when they are due (its memory goes when it exits); inline: in the
   * service process (platforms without process spawning, debugging). docs/operations.md.
   */
  LOADOUT_CRAWL_PROCESS: z.enum(["child", "inline"], { error: "LOADOUT_CRAWL_PROCESS must be child or inline" }).default("child"),
  /** off: response schemas document only (production); strict: validated, and a key they do not name fails (the test app). */
  LOADOUT_RESPONSE_VALIDATION: z.enum(["off", "strict"], { error: "LOADOUT_RESPONSE_VALIDATION must be off or strict" }).default("off"),
  LOADOUT_CRON_WORKSHOP: cron("LOADOUT_CRON_WORKSHOP", "0 */6 * * *"),
  LOADOUT_CRON_GAME_SERVERS: cron("LOADOUT_CRON_GAME_SERVERS", "*/5 * * * *"),
  LOADOUT_CRON_ROLLUPS: cron("LOADOUT_CRON_ROLLUPS", "0 * * * *"),
  LOADOUT_CRON_ITEMS: cron("LOADOUT_CRON_ITEMS", "30 */6 * * *"),
  /** Scheduled backups into <data dir>/backups (unset: none); LOADOUT_BACKUP_KEEP of them are kept. */
  LOADOUT_BACKUP_CRON: optionalNonEmpty.pipe(
    z
      .string()
      .refine((v) => {
        try {
          new Cron(v, { paused: true }).stop(); // croner's own parser: what the scheduler will run
          return true;
        } catch {
          return false;
        }
      }, "LOADOUT_BACKUP_CRON must be a cron expression such as \"0 3 * * *\"")
      .optional(),
  ),
  LOADOUT_BACKUP_KEEP: z.coerce
    .number({ error: "LOADOUT_BACKUP_KEEP must be a whole number of backups from 1 to 1000" })
    .int("LOADOUT_BACKUP_KEEP must be a whole number of backups from 1 to 1000")
    .min(1, "LOADOUT_BACKUP_KEEP must be a whole number of backups from 1 to 1000")
    .max(1000, "LOADOUT_BACKUP_KEEP must be a whole number of backups from 1 to 1000")
    .default(7),
  /** A game server's addons folder on this machine (`<profile>/addons`): items are read from its data.pak files. */
  LOADOUT_ADDONS_DIR: optionalNonEmpty,
  LOADOUT_ALLOW_PRIVATE_URLS: bool("LOADOUT_ALLOW_PRIVATE_URLS", false),
  LOADOUT_TRUST_PROXY: bool("LOADOUT_TRUST_PROXY", false),
  LOADOUT_RATE_LIMIT_ANON: perMinute("LOADOUT_RATE_LIMIT_ANON", 300),
  LOADOUT_RATE_LIMIT_USER: perMinute("LOADOUT_RATE_LIMIT_USER", 1200),
  LOADOUT_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"], { error: "LOADOUT_LOG_LEVEL must be debug, info, warn or error" }).default("info"),
  /** How often a deployment that restarts its server looks again (players gone? server back?), ms. */
  LOADOUT_DEPLOY_POLL_MS: z.coerce
    .number({ error: "LOADOUT_DEPLOY_POLL_MS must be a number of milliseconds" })
    .int("LOADOUT_DEPLOY_POLL_MS must be a whole number of milliseconds")
    .min(10, "LOADOUT_DEPLOY_POLL_MS must be 10 to 600000")
    .max(600_000, "LOADOUT_DEPLOY_POLL_MS must be 10 to 600000")
    .default(5000),
  /** How often the roster of every own server with RCON is read (docs/rcon.md), seconds. */
  LOADOUT_RCON_POLL_S: z.coerce
    .number({ error: "LOADOUT_RCON_POLL_S must be a number of seconds" })
    .int("LOADOUT_RCON_POLL_S must be a whole number of seconds")
    .min(5, "LOADOUT_RCON_POLL_S must be 5 to 3600")
    .max(3600, "LOADOUT_RCON_POLL_S must be 5 to 3600")
    .default(30),
  /** How long players' sessions and names on own servers are kept, days. */
  LOADOUT_PLAYER_RETENTION_DAYS: z.coerce
    .number({ error: "LOADOUT_PLAYER_RETENTION_DAYS must be a number of days" })
    .int("LOADOUT_PLAYER_RETENTION_DAYS must be a whole number of days")
    .min(1, "LOADOUT_PLAYER_RETENTION_DAYS must be 1 to 3650")
    .max(3650, "LOADOUT_PLAYER_RETENTION_DAYS must be 1 to 3650")
    .default(90),
  /** SQLite's page cache (PRAGMA cache_size) and memory-mapped window (PRAGMA mmap_size; 0 = read with pread), docs/performance.md "Memory". */
  LOADOUT_SQLITE_CACHE_MB: mebibytes("LOADOUT_SQLITE_CACHE_MB", 16, 1, 65536),
  LOADOUT_SQLITE_MMAP_MB: mebibytes("LOADOUT_SQLITE_MMAP_MB", 0, 0, 65536),
  /**
   * The WAL's size in pages past which a commit of this process checkpoints it (PRAGMA
   * wal_autocheckpoint; SQLite's default 1000). The crawl's process sets its own, larger
   * (src/features/scraper/crawl-process.ts, docs/performance.md "The crawl's CPU").
   */
  LOADOUT_SQLITE_WAL_AUTOCHECKPOINT: z.coerce
    .number({ error: "LOADOUT_SQLITE_WAL_AUTOCHECKPOINT must be a whole number of pages from 100 to 1000000" })
    .int("LOADOUT_SQLITE_WAL_AUTOCHECKPOINT must be a whole number of pages from 100 to 1000000")
    .min(100, "LOADOUT_SQLITE_WAL_AUTOCHECKPOINT must be a whole number of pages from 100 to 1000000")
    .max(1_000_000, "LOADOUT_SQLITE_WAL_AUTOCHECKPOINT must be a whole number of pages from 100 to 1000000")
    .default(1000),
  /** All in-memory answer caches together (src/shared/bytes-lru.ts answerBudget), least recently used out first. */
  LOADOUT_CACHE_MB: mebibytes("LOADOUT_CACHE_MB", 48, 1, 65536),
  /** Comma-separated allowed origins for CORS, or `*` (the API uses no cookies, so `*` is safe). */
  LOADOUT_CORS_ORIGINS: z.string().default("*"),
});

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== "") picked[key] = v;
  }
  const result = configSchema.safeParse(picked);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? "configuration");
    const msg = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new ConfigError(`invalid configuration: ${msg}`);
  }
  return result.data;
}

/** Config for tests: defaults plus overrides, schedules off, responses validated strictly. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error", LOADOUT_RESPONSE_VALIDATION: "strict", ...overrides });
}
