// Formatting of events: human text (notifications, chat embeds), the custom webhook body and
// Discord's execute-webhook JSON within Discord's limits (docs/events.md "Payloads"). Pure.
import type { EventEnvelope } from "./kinds";

// ---------------------------------------------------------------------------------------------
// Human text

const str = (v: unknown): string | null =>
  typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;

/** First non-empty string among data[keys]. */
function pick(data: Record<string, unknown>, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = str(data[k]);
    if (v !== null) return v;
  }
  return null;
}

function count(v: unknown): number {
  return Array.isArray(v) ? v.length : typeof v === "number" ? v : 0;
}

export interface EventText {
  title: string;
  body: string;
}

export function describeEvent(e: EventEnvelope): EventText {
  const d = e.data ?? {};
  const list = e.list?.name ?? pick(d, "list_name") ?? "a list";
  const who = e.actor?.display_name ?? pick(d, "actor_name", "display_name") ?? "Someone";
  const mod = pick(d, "mod_name", "name", "workshop_id") ?? "a mod";
  const server = pick(d, "server_name") ?? "a server";
  switch (e.kind) {
    case "mod_added":
      return { title: `Mod added to ${list}`, body: `${who} added ${mod}.` };
    case "mod_removed":
      return { title: `Mod removed from ${list}`, body: `${who} removed ${mod}.` };
    case "mod_updated": {
      const from = pick(d, "old_version");
      const to = pick(d, "new_version", "version");
      const change = from && to ? ` from ${from} to ${to}` : to ? ` to ${to}` : "";
      return { title: `${mod} updated`, body: `A newer version of ${mod} (in ${list}) is available${change}.` };
    }
    case "version_changed": {
      const to = pick(d, "new_version", "version", "pinned_version");
      return to
        ? { title: `Version pinned in ${list}`, body: `${who} pinned ${mod} to ${to}.` }
        : { title: `Version unpinned in ${list}`, body: `${who} unpinned ${mod}; it follows the latest version.` };
    }
    case "list_imported": {
      const added = count(d.added ?? d.added_count);
      const removed = count(d.removed ?? d.removed_count);
      const changed = count(d.version_changed ?? d.version_changed_count);
      return {
        title: `${list} imported`,
        body: `${who} imported a server configuration: ${added} added, ${removed} removed, ${changed} version changes.`,
      };
    }
    case "suggestion_created": {
      const reason = pick(d, "reason");
      return {
        title: `New suggestion for ${list}`,
        body: `${who} suggested ${mod}${reason ? `: ${reason}` : "."}`,
      };
    }
    case "suggestion_reviewed": {
      const status = pick(d, "status") ?? "reviewed";
      const note = pick(d, "note");
      return { title: `Suggestion ${status}`, body: `${who} ${status} the suggestion of ${mod} for ${list}${note ? `: ${note}` : "."}` };
    }
    case "deploy_requested":
      return { title: `Deploy requested for ${list}`, body: `${who} asked to deploy ${list} to ${server}.` };
    case "deploy_request_decided": {
      const status = pick(d, "status") ?? "decided";
      const note = pick(d, "note");
      return { title: `Deploy request ${status}`, body: `${who} ${status} the deploy of ${list} to ${server}${note ? `: ${note}` : "."}` };
    }
    case "deployment_succeeded": {
      const n = pick(d, "item_count");
      return { title: `Deployed ${list}`, body: `${list} was deployed to ${server}${n ? ` (${n} mods)` : ""}.` };
    }
    case "deployment_failed": {
      const err = pick(d, "error_message", "error");
      return { title: `Deployment of ${list} failed`, body: `Deploying ${list} to ${server} failed${err ? `: ${err}` : "."}` };
    }
    case "deploy.restarting": {
      if (d.rollback === true) {
        return { title: `${server} restarting`, body: `Server restarting in a moment to bring back the previous mods.` };
      }
      const changes = modChangeSummary(d);
      return {
        title: `${server} restarting`,
        body: changes ? `Server restarting in a moment for mod updates: ${changes}` : "Server restarting in a moment for mod updates.",
      };
    }
    case "deploy.verified":
      return { title: `${server} is back`, body: `${server} is back up with the new mods${pick(d, "item_count") ? ` (${pick(d, "item_count")} mods)` : ""}.` };
    case "deploy.rolled_back": {
      const err = pick(d, "error_message", "reason");
      return d.ok === false
        ? { title: `Rollback on ${server} failed`, body: `${server} did not come back after the mod update, and restoring the previous mods failed too${err ? `: ${err}` : "."}` }
        : { title: `${server} rolled back`, body: `${server} did not come back with the new mods; it is back up with the previous ones${err ? `. ${err}` : "."}` };
    }
    case "server.rcon_lost":
      return {
        title: `RCON lost: ${server}`,
        body: `Loadout has not reached ${server} over RCON for two polls${pick(d, "error") ? ` (${pick(d, "error")})` : ""}: its roster and moderation wait until it answers again.`,
      };
    case "server.rcon_restored":
      return { title: `RCON back: ${server}`, body: `Loadout reaches ${server} over RCON again.` };
    // Moderation: the chat text a community can post ("Bob banned PlayerX on EMS main for 1 day: team killing").
    case "player.kicked": {
      const why = pick(d, "reason");
      return { title: `${pick(d, "player_name") ?? "A player"} kicked`, body: `${pick(d, "actor_name") ?? who} kicked ${pick(d, "player_name") ?? "a player"} from ${server}${why ? `: ${why}` : "."}` };
    }
    case "player.banned": {
      const span = pick(d, "duration") ?? "";
      const where = d.scope === "all" ? `${server} and every other server of the community` : server;
      return {
        title: `${pick(d, "player_name") ?? "A player"} banned`,
        body: `${pick(d, "actor_name") ?? who} banned ${pick(d, "player_name") ?? "a player"} on ${where}${span ? ` ${span}` : ""}: ${pick(d, "reason") ?? "no reason given"}`,
      };
    }
    case "player.unbanned":
      return { title: `${pick(d, "player_name") ?? "A player"} unbanned`, body: `${pick(d, "actor_name") ?? who} lifted the ban of ${pick(d, "player_name") ?? "a player"} on ${server}.` };
    case "test":
      return { title: "Test event", body: "This is a test delivery from Loadout." };
    case "webhook_disabled":
      return {
        title: "Webhook disabled",
        body: `Your webhook to ${pick(d, "url") ?? "an endpoint"} failed ${pick(d, "consecutive_failures") ?? "too many"} deliveries in a row and was disabled. Fix the endpoint and enable it again.`,
      };
    default:
      return { title: e.kind, body: `${e.kind} on ${list}.` };
  }
}

/** "+2 −1 ~3": mods added, removed and changed in version (deploy.restarting). */
export function modChangeSummary(d: Record<string, unknown>): string {
  const parts: string[] = [];
  const added = count(d.added);
  const removed = count(d.removed);
  const updated = count(d.updated);
  if (added) parts.push(`+${added}`);
  if (removed) parts.push(`\u2212${removed}`);
  if (updated) parts.push(`~${updated}`);
  return parts.join(" ");
}

// ---------------------------------------------------------------------------------------------
// Custom webhook body (docs/events.md): {id, type, created_at, list: {id, name} | null, data}

export function customWebhookBody(e: EventEnvelope): string {
  return JSON.stringify({
    id: e.id,
    type: e.kind,
    created_at: new Date(e.created_at).toISOString(),
    list: e.list ? { id: e.list.id, name: e.list.name } : null,
    data: e.data ?? {},
  });
}

// ---------------------------------------------------------------------------------------------
// Discord

export const DISCORD_LIMITS = {
  username: 80,
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  /** Sum of title, description, field names and values, footer and author of all embeds. */
  embedTotal: 6000,
} as const;

export interface DiscordField {
  name: string;
  value: string;
  inline?: boolean;
}
export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  fields?: DiscordField[];
  footer?: { text: string };
  author?: { name: string };
}
export interface DiscordPayload {
  username?: string;
  avatar_url?: string;
  content?: string;
  embeds?: DiscordEmbed[];
  allowed_mentions?: { parse: string[] };
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair; marks the cut with "…". */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  let cut = max - 1;
  const code = s.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // don't leave a lone high surrogate
  return s.slice(0, cut) + "…";
}

/** Discord rejects empty names/values: use a zero-width space. */
const nonEmpty = (s: string) => (s.trim() === "" ? "\u200b" : s);

const embedLength = (e: DiscordEmbed): number =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  (e.footer?.text.length ?? 0) +
  (e.author?.name.length ?? 0) +
  (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);

/**
 * Forces any payload within Discord's documented limits. Never throws: over-long text is cut,
 * surplus fields and embeds are dropped, and the 6000-character embed budget is met by
 * shortening descriptions first, then dropping fields from the end.
 */
export function clampDiscordPayload(p: DiscordPayload): DiscordPayload {
  const L = DISCORD_LIMITS;
  const out: DiscordPayload = { ...p };
  if (out.username !== undefined) out.username = truncate(out.username, L.username);
  if (out.content !== undefined) out.content = truncate(out.content, L.content);
  const embeds = (p.embeds ?? []).slice(0, L.embeds).map((e) => {
    const c: DiscordEmbed = { ...e };
    if (c.title !== undefined) c.title = truncate(c.title, L.title);
    if (c.description !== undefined) c.description = truncate(c.description, L.description);
    if (c.footer) c.footer = { text: truncate(nonEmpty(c.footer.text), L.footer) };
    if (c.author) c.author = { name: truncate(nonEmpty(c.author.name), L.author) };
    if (c.fields) {
      c.fields = c.fields.slice(0, L.fields).map((f) => ({
        name: truncate(nonEmpty(f.name), L.fieldName),
        value: truncate(nonEmpty(f.value), L.fieldValue),
        ...(f.inline !== undefined ? { inline: f.inline } : {}),
      }));
    }
    return c;
  });
  // Total budget across all embeds.
  let total = embeds.reduce((n, e) => n + embedLength(e), 0);
  for (let i = embeds.length - 1; i >= 0 && total > L.embedTotal; i--) {
    const e = embeds[i];
    while (total > L.embedTotal && e.fields && e.fields.length > 0) {
      const f = e.fields.pop()!;
      total -= f.name.length + f.value.length;
    }
    if (total > L.embedTotal && e.description) {
      const keep = Math.max(0, e.description.length - (total - L.embedTotal));
      const before = e.description.length;
      e.description = keep > 1 ? truncate(e.description, keep) : undefined;
      total -= before - (e.description?.length ?? 0);
    }
    if (total > L.embedTotal && e.footer) {
      total -= e.footer.text.length;
      delete e.footer;
    }
    if (total > L.embedTotal && e.author) {
      total -= e.author.name.length;
      delete e.author;
    }
    if (total > L.embedTotal && e.title) {
      const keep = Math.max(0, e.title.length - (total - L.embedTotal));
      const before = e.title.length;
      e.title = keep > 1 ? truncate(e.title, keep) : undefined;
      total -= before - (e.title?.length ?? 0);
    }
  }
  if (p.embeds !== undefined) out.embeds = embeds;
  return out;
}

const COLORS: Record<string, number> = {
  mod_added: 0x2ecc71,
  mod_removed: 0xe74c3c,
  mod_updated: 0x3498db,
  version_changed: 0x9b59b6,
  list_imported: 0x1abc9c,
  suggestion_created: 0xf1c40f,
  suggestion_reviewed: 0xe67e22,
  deploy_requested: 0xf39c12,
  deploy_request_decided: 0xd35400,
  deployment_succeeded: 0x27ae60,
  deployment_failed: 0xc0392b,
  "deploy.restarting": 0xf39c12,
  "deploy.verified": 0x27ae60,
  "deploy.rolled_back": 0xc0392b,
  "server.rcon_lost": 0xc0392b,
  "server.rcon_restored": 0x27ae60,
  "player.kicked": 0xe67e22,
  "player.banned": 0xc0392b,
  "player.unbanned": 0x27ae60,
  test: 0x95a5a6,
};

function fieldValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    return v
      .map((x) =>
        typeof x === "object" && x !== null
          ? String((x as Record<string, unknown>).name ?? (x as Record<string, unknown>).workshop_id ?? (x as Record<string, unknown>).modId ?? JSON.stringify(x))
          : String(x),
      )
      .join(", ");
  }
  return JSON.stringify(v);
}

const humanKey = (k: string) => k.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** Keys already said in the title/description, or internal. */
const HIDDEN_FIELDS = new Set(["list_id", "list_name", "actor_id", "actor_name", "reason", "note", "error_message", "notify", "duration"]);

/** The restart-loop kinds go to a players' channel: their chat message names only the mods, no ids. */
const PLAYER_FACING_FIELDS: Record<string, string[]> = {
  "deploy.restarting": ["added", "removed", "updated"],
  "deploy.verified": [],
  "deploy.rolled_back": [],
};

export function discordPayload(e: EventEnvelope, opts: { baseUrl?: string } = {}): DiscordPayload {
  const text = describeEvent(e);
  const fields: DiscordField[] = [];
  const only = PLAYER_FACING_FIELDS[e.kind];
  for (const [k, v] of Object.entries(e.data ?? {})) {
    if (only && !only.includes(k)) continue;
    if (HIDDEN_FIELDS.has(k)) continue;
    const value = fieldValue(v);
    if (value === null || value === "") continue;
    fields.push({ name: humanKey(k), value, inline: value.length <= 40 });
  }
  const embed: DiscordEmbed = {
    title: text.title,
    description: text.body,
    color: COLORS[e.kind] ?? 0x7f8c8d,
    timestamp: new Date(e.created_at).toISOString(),
    fields,
    footer: { text: `Loadout · ${e.kind}` },
  };
  if (e.list && opts.baseUrl) {
    embed.url = `${opts.baseUrl.replace(/\/+$/, "")}/api/v1/lists/${encodeURIComponent(e.list.id)}`;
  }
  return clampDiscordPayload({
    username: "Loadout",
    embeds: [embed],
    // Text from users (mod names, reasons) must never ping @everyone or roles.
    allowed_mentions: { parse: [] },
  });
}
