import { describe, expect, test } from "bun:test";
import { clampDiscordPayload, customWebhookBody, describeEvent, discordPayload, DISCORD_LIMITS, truncate } from "./render";
import type { EventEnvelope } from "./kinds";
import { EVENT_KINDS } from "./kinds";

const base: EventEnvelope = {
  id: "0190a0b0-0000-7000-8000-000000000001",
  kind: "mod_added",
  created_at: Date.UTC(2026, 10, 21, 23, 44, 45, 123),
  list: { id: "L1", name: "Milsim" },
  actor: { id: "U1", display_name: "Alice" },
  data: { workshop_id: "5965550F24A0C152", mod_name: "RHS Status Quo" },
};

function embedTotal(p: ReturnType<typeof discordPayload>): number {
  return (p.embeds ?? []).reduce(
    (n, e) =>
      n +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.fields ?? []).reduce((m, f) => m + f.name.length + f.value.length, 0),
    0,
  );
}

function assertWithinLimits(p: ReturnType<typeof discordPayload>) {
  const L = DISCORD_LIMITS;
  expect((p.username ?? "").length).toBeLessThanOrEqual(L.username);
  expect((p.content ?? "").length).toBeLessThanOrEqual(L.content);
  expect((p.embeds ?? []).length).toBeLessThanOrEqual(L.embeds);
  for (const e of p.embeds ?? []) {
    expect((e.title ?? "").length).toBeLessThanOrEqual(L.title);
    expect((e.description ?? "").length).toBeLessThanOrEqual(L.description);
    expect((e.fields ?? []).length).toBeLessThanOrEqual(L.fields);
    for (const f of e.fields ?? []) {
      expect(f.name.length).toBeGreaterThan(0);
      expect(f.name.length).toBeLessThanOrEqual(L.fieldName);
      expect(f.value.length).toBeGreaterThan(0);
      expect(f.value.length).toBeLessThanOrEqual(L.fieldValue);
    }
    expect((e.footer?.text ?? "").length).toBeLessThanOrEqual(L.footer);
  }
  expect(embedTotal(p)).toBeLessThanOrEqual(L.embedTotal);
}

describe("describeEvent", () => {
  test("every event kind has its own title and body", () => {
    const titles = new Set<string>();
    for (const kind of EVENT_KINDS) {
      const t = describeEvent({ ...base, kind, data: { ...base.data, status: "approved", server_name: "EU1" } });
      expect(t.title.length).toBeGreaterThan(0);
      expect(t.body.length).toBeGreaterThan(0);
      titles.add(`${t.title}|${t.body}`);
    }
    expect(titles.size).toBe(EVENT_KINDS.length);
  });

  test("mentions the mod, list and versions", () => {
    const t = describeEvent({ ...base, kind: "mod_updated", data: { mod_name: "ACE", old_version: "1.0.0", new_version: "1.1.0" } });
    expect(t.title).toBe("ACE updated");
    expect(t.body).toContain("Milsim");
    expect(t.body).toContain("1.0.0");
    expect(t.body).toContain("1.1.0");
  });
});

describe("custom webhook body", () => {
  test("has exactly id, type, created_at, list, data", () => {
    const body = JSON.parse(customWebhookBody(base));
    expect(body).toEqual({
      id: base.id,
      type: "mod_added",
      created_at: "2026-11-21T23:44:45.123Z",
      list: { id: "L1", name: "Milsim" },
      data: base.data,
    });
    expect(JSON.parse(customWebhookBody({ ...base, list: null })).list).toBeNull();
  });
});

describe("Discord payload", () => {
  test("shape: username, one embed with title, description, url, color, fields, timestamp; no mentions", () => {
    const p = discordPayload(base, { baseUrl: "https://loadout.example/" });
    expect(p.username).toBe("Loadout");
    expect(p.allowed_mentions).toEqual({ parse: [] });
    expect(p.embeds).toHaveLength(1);
    const e = p.embeds![0];
    expect(e.title).toBe("Mod added to Milsim");
    expect(e.description).toBe("Alice added RHS Status Quo.");
    expect(e.url).toBe("https://loadout.example/api/v1/lists/L1");
    expect(typeof e.color).toBe("number");
    expect(e.timestamp).toBe("2026-11-21T23:44:45.123Z");
    expect(e.fields).toContainEqual({ name: "Workshop id", value: "5965550F24A0C152", inline: true });
    assertWithinLimits(p);
  });

  test("huge inputs are truncated, never rejected", () => {
    const huge = "x".repeat(10_000);
    const data: Record<string, unknown> = { mod_name: huge, reason: huge };
    for (let i = 0; i < 40; i++) data[`field_${i}_${"k".repeat(300)}`] = huge;
    const p = discordPayload({ ...base, kind: "suggestion_created", list: { id: "L", name: huge }, data });
    assertWithinLimits(p);
    expect(p.embeds![0].title!.endsWith("…")).toBe(true);
  });

  test("clamp enforces every limit on arbitrary payloads", () => {
    const long = "é".repeat(5000);
    const p = clampDiscordPayload({
      username: long,
      content: long,
      embeds: Array.from({ length: 12 }, () => ({
        title: long,
        description: long,
        footer: { text: long },
        fields: Array.from({ length: 30 }, () => ({ name: "", value: "" })),
      })),
    });
    assertWithinLimits(p);
    expect(p.embeds).toHaveLength(10);
  });

  test("truncate never splits a surrogate pair", () => {
    const s = "a" + "😀".repeat(10);
    for (let max = 1; max < s.length; max++) {
      const t = truncate(s, max);
      expect(t.length).toBeLessThanOrEqual(max);
      // a lone high surrogate would not survive a UTF-8 round trip
      expect(new TextDecoder().decode(new TextEncoder().encode(t))).toBe(t);
    }
  });
});
