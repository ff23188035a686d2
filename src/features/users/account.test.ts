// Account deletion removes every row the user owns, across every feature, in one transaction.
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../../test/helpers";

/** Every table with a column that can point at the user or at one of the user's lists. */
function rowsReferencing(t: Awaited<ReturnType<typeof createTestApp>>, userId: string, listIds: string[]): Record<string, number> {
  // event_outbox is a transient queue, not owned data: its rows are dispatched (to nobody, once
  // the list is gone) and pruned by the dispatcher.
  const tables = (t.deps.sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%'").all() as { name: string }[]).filter(
    (x) => x.name !== "event_outbox",
  );
  const out: Record<string, number> = {};
  const ids = [userId, ...listIds];
  for (const { name } of tables) {
    const cols = (t.deps.sqlite.query(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name);
    const refCols = cols.filter((c) => ["user_id", "owner_id", "list_id", "id"].includes(c) || (name === "lists" && c === "id"));
    for (const c of refCols) {
      const n = (t.deps.sqlite.query(`SELECT COUNT(*) AS n FROM "${name}" WHERE "${c}" IN (${ids.map(() => "?").join(",")})`).get(...ids) as { n: number }).n;
      if (n > 0) out[`${name}.${c}`] = n;
    }
  }
  return out;
}

describe("DELETE /settings/account", () => {
  test("removes lists and what hangs off them, keys, groups, tags, folders, communities, templates, webhooks, notifications, servers and credentials", async () => {
    const t = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    try {
      const u = await t.createUser();
      const other = await t.createUser();
      const ok = <R extends { status: number; text: string }>(r: R): R => {
        if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
        return r;
      };
      const list = ok(await t.req("POST", "/api/v1/lists", { user: u, body: { name: "Mine", description: "", is_public: true } })).body;
      ok(await t.req("POST", `/api/v1/lists/${list.id}/mods`, { user: u, body: { workshop_id: "5965550F24A0C152" } }));
      ok(await t.req("POST", `/api/v1/lists/${list.id}/versions`, { user: u, body: { version_name: "v1" } }));
      ok(await t.req("POST", "/api/v1/api-keys", { user: u, body: { name: "k" } }));
      ok(await t.req("POST", "/api/v1/tags/mine", { user: u, body: { name: "pvp", color: "#ff0000" } }));
      ok(await t.req("POST", "/api/v1/folders", { user: u, body: { name: "F" } }));
      ok(await t.req("POST", "/api/v1/communities", { user: u, body: { name: "Comm", description: "" } }));
      ok(await t.req("POST", "/api/v1/groups", { user: u, body: { name: "G", description: "", can_add: true, can_remove: false, can_deploy: false } }));
      ok(await t.req("POST", "/api/v1/templates", { user: u, body: { list_id: list.id, name: "T" } }));
      ok(await t.req("POST", "/api/v1/settings/webhooks", { user: u, body: { url: "http://127.0.0.1:9/hook", type: "custom", events: ["mod_added"], scope: "global" } }));
      const server = ok(await t.req("POST", "/api/v1/servers", { user: u, body: { name: "S", connection_type: "sftp", file_path: "/srv/server.json", linked_list_id: list.id, auto_deploy: false } })).body;
      ok(await t.req("POST", `/api/v1/servers/${server.id}/credentials`, { user: u, body: { host: "127.0.0.1", port: 22, username: "x", password: "y" } }));
      // The user is also a co-owner and a suggester on someone else's list.
      const theirs = ok(await t.req("POST", "/api/v1/lists", { user: other, body: { name: "Theirs", description: "", is_public: true } })).body;
      ok(await t.req("POST", `/api/v1/lists/${theirs.id}/owners`, { user: other, body: { search: u.email } }));
      ok(await t.req("POST", `/api/v1/lists/${theirs.id}/suggestions`, { user: u, body: { workshop_id: "5965550F24A0C153", reason: "good" } }));
      t.deps.sqlite.query("INSERT INTO notifications (id, user_id, event, title, body, list_id, data, read, created_at) VALUES ('n1', ?, 'mod_added', 't', 'b', ?, '{}', 0, 0)").run(u.id, list.id);

      expect(Object.keys(rowsReferencing(t, u.id, [list.id])).length).toBeGreaterThan(5);
      const del = await t.req("DELETE", "/api/v1/settings/account", { user: u });
      expect(del.status).toBe(204);
      expect(rowsReferencing(t, u.id, [list.id])).toEqual({});
      expect((await t.req("GET", "/api/v1/auth/me", { user: u })).status).toBe(401);
      // The other user's list is untouched, minus the deleted co-owner and suggestion.
      const still = await t.req("GET", `/api/v1/lists/${theirs.id}`, { user: other });
      expect(still.status).toBe(200);
      expect((await t.req("GET", `/api/v1/lists/${theirs.id}/owners`, { user: other })).body.owners).toEqual([]);
    } finally {
      await t.close();
    }
  });

  test("an unapproved account may delete itself", async () => {
    const t = await createTestApp();
    try {
      const u = await t.createUser({ approved: false });
      expect((await t.req("DELETE", "/api/v1/settings/account", { user: u })).status).toBe(204);
    } finally {
      await t.close();
    }
  });
});
