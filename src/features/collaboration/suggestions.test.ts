// Suggestions end to end on the real app: form fields, both answer forms, validation, votes,
// accept (adds the mod, audited), reject, repeated decision, blocks, the suggestion token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";

const MOD_A = "5965550F24A0C152";
const MOD_B = "ABCDEF0123456789";
const MOD_C = "1111111111111111";
const MOD_OLD = "2222222222222222";
const MOD_D = "3333333333333333";

let t: TestApp;
let owner: TestUser, alice: TestUser, bob: TestUser, carol: TestUser, collabAdd: TestUser, collabNone: TestUser;
let listId: string, suggestionToken: string;
const fields: Record<string, string> = {};

function seedMod(workshopId: string, name: string, updatedAt: number) {
  t.deps.sqlite
    .query("INSERT INTO mods (workshop_id, name, version, state, updated_at) VALUES (?, ?, '1.0.0', 'active', ?)")
    .run(workshopId, name, updatedAt);
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ display_name: "Owner" });
  alice = await t.createUser({ display_name: "Alice" });
  bob = await t.createUser({ display_name: "Bob" });
  carol = await t.createUser({ display_name: "Carol" });
  collabAdd = await t.createUser({ display_name: "Adder" });
  collabNone = await t.createUser({ display_name: "Watcher" });
  const now = t.clock.now();
  seedMod(MOD_A, "Alpha Mod", now);
  seedMod(MOD_B, "Bravo Mod", now);
  seedMod(MOD_C, "Charlie Mod", now);
  seedMod(MOD_OLD, "Ancient Mod", now - 400 * 86_400_000);
  seedMod(MOD_D, "Delta Mod", now);

  const r = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "Public list", is_public: true } });
  expect(r.status).toBe(200);
  listId = r.body.id;
  suggestionToken = r.body.suggestion_token;
  expect((await t.req("POST", `/api/v1/lists/${listId}/collaborators`, { user: owner, body: { search: "Adder", can_add: true } })).status).toBe(200);
  expect((await t.req("POST", `/api/v1/lists/${listId}/collaborators`, { user: owner, body: { search: "Watcher", can_add: false } })).status).toBe(200);
});
afterAll(() => t.close());

describe("form fields", () => {
  test("owner creates text, checkbox and select fields; select needs options", async () => {
    const url = `/api/v1/lists/${listId}/form-fields`;
    const text = await t.req("POST", url, { user: owner, body: { label: "Why this mod?", type: "text", required: true } });
    expect(text.status).toBe(200);
    expect(text.body).toMatchObject({ label: "Why this mod?", type: "text", required: true, options: [] });
    fields.text = text.body.id;
    const cb = await t.req("POST", url, { user: owner, body: { label: "Tested on a server", type: "checkbox", required: true } });
    expect(cb.status).toBe(200);
    fields.checkbox = cb.body.id;
    const sel = await t.req("POST", url, { user: owner, body: { label: "Category", type: "select", options: ["Vehicles", "Weapons"] } });
    expect(sel.status).toBe(200);
    expect(sel.body.options).toEqual(["Vehicles", "Weapons"]);
    expect(sel.body.required).toBe(false);
    fields.select = sel.body.id;

    const noOpts = await t.req("POST", url, { user: owner, body: { label: "Empty", type: "select", options: [] } });
    expect(noOpts.status).toBe(400);
    expect(noOpts.body.error).toBe("options: a select field needs at least one option");
    const badType = await t.req("POST", url, { user: owner, body: { label: "X", type: "radio" } });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toBe("type: must be text, checkbox or select");
    expect((await t.req("POST", url, { user: collabAdd, body: { label: "X", type: "text" } })).status).toBe(403);

    const list = await t.req("GET", url);
    expect(list.status).toBe(200);
    expect(list.body.fields.map((f: any) => f.id)).toEqual([fields.text, fields.checkbox, fields.select]);
  });

  test("update and delete a field", async () => {
    const url = `/api/v1/lists/${listId}/form-fields`;
    const tmp = await t.req("POST", url, { user: owner, body: { label: "Temp", type: "text" } });
    const put = await t.req("PUT", `${url}/${tmp.body.id}`, { user: owner, body: { label: "Temp 2", type: "select", options: ["a"] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ label: "Temp 2", type: "select", options: ["a"] });
    expect((await t.req("DELETE", `${url}/${tmp.body.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `${url}/${tmp.body.id}`, { user: owner })).status).toBe(404);
    expect((await t.req("PUT", `${url}/${tmp.body.id}`, { user: owner, body: { label: "x", type: "text" } })).status).toBe(404);
  });
});

describe("submitting", () => {
  const url = () => `/api/v1/lists/${listId}/suggestions`;
  let sA: string, sB: string;

  test("anonymous is 401", async () => {
    expect((await t.req("POST", url(), { body: { workshop_id: MOD_A } })).status).toBe(401);
  });

  test("answers are validated against the fields", async () => {
    const cases: [unknown, string][] = [
      [undefined, `form_answers: "Why this mod?" is required`],
      [{ [fields.checkbox!]: true }, `form_answers: "Why this mod?" is required`],
      [{ [fields.text!]: "   ", [fields.checkbox!]: true }, `form_answers: "Why this mod?" is required`],
      [{ [fields.text!]: "good" }, `form_answers: "Tested on a server" is required`],
      [{ [fields.text!]: true, [fields.checkbox!]: true }, `form_answers: "Why this mod?" must be a string`],
      [{ [fields.text!]: "good", [fields.checkbox!]: "yes" }, `form_answers: "Tested on a server" must be a boolean`],
      [{ [fields.text!]: "good", [fields.checkbox!]: true, [fields.select!]: "Maps" }, `form_answers: "Category" must be one of "Vehicles", "Weapons"`],
      [{ [fields.text!]: "good", [fields.checkbox!]: true, nope: "x" }, "form_answers: unknown field nope"],
      [[{ field_id: fields.text, value: "a" }, { field_id: fields.text, value: "b" }], `form_answers: field ${fields.text} is answered twice`],
    ];
    for (const [answers, message] of cases) {
      const r = await t.req("POST", url(), { user: alice, body: { workshop_id: MOD_A, form_answers: answers } });
      expect({ answers, status: r.status, error: r.body.error }).toEqual({ answers, status: 400, error: message });
    }
    const badShape = await t.req("POST", url(), { user: alice, body: { workshop_id: MOD_A, form_answers: 42 } });
    expect(badShape.status).toBe(400);
    const badId = await t.req("POST", url(), { user: alice, body: { workshop_id: "xyz" } });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe("invalid workshop ID");
  });

  test("object form", async () => {
    const r = await t.req("POST", url(), {
      user: alice,
      body: { workshop_id: MOD_A.toLowerCase(), reason: "great", form_answers: { [fields.text!]: "needed", [fields.checkbox!]: false, [fields.select!]: "Vehicles" } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      list_id: listId,
      workshop_id: MOD_A,
      mod_name: "Alpha Mod",
      reason: "great",
      status: "pending",
      user_id: alice.id,
      display_name: "Alice",
      votes: 0,
      voted: false,
      note: null,
      form_answers: { [fields.text!]: "needed", [fields.checkbox!]: false, [fields.select!]: "Vehicles" },
    });
    sA = r.body.id;
    const ev = t.deps.sqlite.query("SELECT kind, actor_id, data FROM event_outbox WHERE kind = 'suggestion_created' AND list_id = ?").all(listId) as any[];
    expect(ev.length).toBe(1);
    expect(ev[0].actor_id).toBe(alice.id);
    expect(JSON.parse(ev[0].data)).toMatchObject({ suggestion_id: sA, workshop_id: MOD_A });
  });

  test("array form is stored in object form", async () => {
    const r = await t.req("POST", url(), {
      user: bob,
      body: { workshop_id: MOD_B, form_answers: [{ field_id: fields.text, value: "fun" }, { field_id: fields.checkbox, value: true }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.form_answers).toEqual({ [fields.text!]: "fun", [fields.checkbox!]: true });
    sB = r.body.id;
  });

  test("a mod already pending or already in the list is 409", async () => {
    const answers = { [fields.text!]: "x", [fields.checkbox!]: true };
    const dup = await t.req("POST", url(), { user: bob, body: { workshop_id: MOD_A, form_answers: answers } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("mod is already suggested");
    expect((await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: MOD_D } })).status).toBe(200);
    const inList = await t.req("POST", url(), { user: bob, body: { workshop_id: MOD_D, form_answers: answers } });
    expect(inList.status).toBe(409);
    expect(inList.body.error).toBe("mod is already in the list");
  });

  test("votes: one per user, 0 retracts, counted in GET with the caller's flag", async () => {
    const v = (u: TestUser, id: string, vote: number) => t.req("POST", `${url()}/${id}/vote`, { user: u, body: { vote } });
    expect((await v(bob, sA, 1)).body).toEqual({ votes: 1, voted: true });
    expect((await v(bob, sA, 1)).body).toEqual({ votes: 1, voted: true });
    expect((await v(carol, sA, 1)).body).toEqual({ votes: 2, voted: true });
    expect((await v(carol, sA, 0)).body).toEqual({ votes: 1, voted: false });
    expect((await v(carol, sA, 0)).body).toEqual({ votes: 1, voted: false });
    expect((await v(owner, sB, 1)).body).toEqual({ votes: 1, voted: true });
    expect((await v(alice, sB, 1)).body).toEqual({ votes: 2, voted: true });
    const bad = await v(bob, sA, 2);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("vote: must be 1 or 0");
    expect((await t.req("POST", `${url()}/${sA}/vote`, { body: { vote: 1 } })).status).toBe(401);
    expect((await v(bob, "no-such-id", 1)).status).toBe(404);

    const g = await t.req("GET", url(), { user: owner });
    expect(g.status).toBe(200);
    // pending, most votes first
    expect(g.body.suggestions.map((s: any) => [s.id, s.votes, s.voted])).toEqual([
      [sB, 2, true],
      [sA, 1, false],
    ]);
    const asBob = await t.req("GET", url(), { user: collabNone });
    expect(asBob.status).toBe(200);
    expect((await t.req("GET", url(), { user: alice })).status).toBe(403);
    expect((await t.req("GET", url())).status).toBe(401);
  });

  test("reject with a note; a repeated decision is 409", async () => {
    const p = `${url()}/${sB}`;
    expect((await t.req("PATCH", p, { user: collabNone, body: { status: "rejected" } })).status).toBe(403);
    expect((await t.req("PATCH", p, { user: alice, body: { status: "rejected" } })).status).toBe(403);
    const bad = await t.req("PATCH", p, { user: owner, body: { status: "maybe" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("status: must be accepted or rejected");
    const r = await t.req("PATCH", p, { user: owner, body: { status: "rejected", note: "not for us" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "rejected", note: "not for us", reviewed_by: owner.id });
    expect(typeof r.body.reviewed_at).toBe("string");
    for (const status of ["rejected", "accepted"]) {
      const again = await t.req("PATCH", p, { user: owner, body: { status } });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe("suggestion already reviewed");
    }
    const vote = await t.req("POST", `${p}/vote`, { user: carol, body: { vote: 1 } });
    expect(vote.status).toBe(409);
    // the rejected mod was not added
    const detail = await t.req("GET", `/api/v1/lists/${listId}`, { user: owner });
    expect(detail.body.items.map((i: any) => i.workshop_id)).not.toContain(MOD_B);
  });

  test("accept by a collaborator with can_add adds the mod at once, audited, with events", async () => {
    const r = await t.req("PATCH", `${url()}/${sA}`, { user: collabAdd, body: { status: "accepted", note: "welcome" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "accepted", note: "welcome", reviewed_by: collabAdd.id, votes: 1 });
    const detail = await t.req("GET", `/api/v1/lists/${listId}`, { user: owner });
    expect(detail.body.items.map((i: any) => i.workshop_id)).toContain(MOD_A);
    const audit = await t.req("GET", `/api/v1/lists/${listId}/audit`, { user: owner });
    expect(audit.body.find((e: any) => e.workshop_id === MOD_A)).toMatchObject({ action: "add_mod", user_id: collabAdd.id });
    const ev = t.deps.sqlite.query("SELECT data FROM event_outbox WHERE kind = 'suggestion_reviewed' AND list_id = ?").all(listId) as any[];
    expect(ev.map((e) => JSON.parse(e.data).status).sort()).toEqual(["accepted", "rejected"]);
    expect(JSON.parse(ev.find((e) => JSON.parse(e.data).status === "accepted").data)).toMatchObject({ requester_id: alice.id, workshop_id: MOD_A });
    const again = await t.req("PATCH", `${url()}/${sA}`, { user: owner, body: { status: "accepted" } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("suggestion already reviewed");

    const g = await t.req("GET", `${url()}?status=reviewed`, { user: owner });
    expect(g.body.suggestions.map((s: any) => s.id)).toEqual([sA, sB]);
    const pend = await t.req("GET", `${url()}?status=pending`, { user: owner });
    expect(pend.body.suggestions).toEqual([]);
  });

  test("accepting a mod the age rule forbids is 422 and the suggestion stays pending", async () => {
    expect((await t.req("PUT", `/api/v1/lists/${listId}`, { user: owner, body: { max_mod_age_days: 30 } })).status).toBe(204);
    const s = await t.req("POST", url(), { user: carol, body: { workshop_id: MOD_OLD, form_answers: { [fields.text!]: "old but gold", [fields.checkbox!]: true } } });
    expect(s.status).toBe(200);
    const r = await t.req("PATCH", `${url()}/${s.body.id}`, { user: owner, body: { status: "accepted" } });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("Mod age exceeds list limits");
    const g = await t.req("GET", `${url()}?status=pending`, { user: owner });
    expect(g.body.suggestions.map((x: any) => [x.id, x.status])).toEqual([[s.body.id, "pending"]]);
    // rejecting still works, and a reviewer may delete it
    expect((await t.req("PATCH", `${url()}/${s.body.id}`, { user: owner, body: { status: "rejected" } })).status).toBe(200);
    expect((await t.req("DELETE", `${url()}/${s.body.id}`, { user: collabNone })).status).toBe(403);
    expect((await t.req("DELETE", `${url()}/${s.body.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `${url()}/${s.body.id}`, { user: owner })).status).toBe(404);
    expect((await t.req("PUT", `/api/v1/lists/${listId}`, { user: owner, body: { max_mod_age_days: null } })).status).toBe(204);
  });

  test("accepting when the mod was added meanwhile is 409 and the suggestion stays pending", async () => {
    const s = await t.req("POST", url(), { user: carol, body: { workshop_id: MOD_C, form_answers: { [fields.text!]: "c", [fields.checkbox!]: true } } });
    expect(s.status).toBe(200);
    expect((await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: MOD_C } })).status).toBe(200);
    const r = await t.req("PATCH", `${url()}/${s.body.id}`, { user: owner, body: { status: "accepted" } });
    expect(r.status).toBe(409);
    const g = await t.req("GET", `${url()}?status=pending`, { user: owner });
    expect(g.body.suggestions.map((x: any) => x.id)).toEqual([s.body.id]);
  });

  test("accepting at the 1000-mod limit is 409 and the suggestion stays pending", async () => {
    const other = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "Full list", is_public: true } });
    const fullId = other.body.id;
    const s = await t.req("POST", `/api/v1/lists/${fullId}/suggestions`, { user: carol, body: { workshop_id: MOD_B } });
    expect(s.status).toBe(200);
    const ins = t.deps.sqlite.prepare("INSERT INTO list_items (list_id, workshop_id, name, position, added_at) VALUES (?, ?, ?, ?, ?)");
    t.deps.sqlite.transaction(() => {
      for (let i = 0; i < 1000; i++) ins.run(fullId, "E" + i.toString(16).toUpperCase().padStart(15, "0"), `m${i}`, i, t.clock.now());
    })();
    const r = await t.req("PATCH", `/api/v1/lists/${fullId}/suggestions/${s.body.id}`, { user: owner, body: { status: "accepted" } });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("maximum number of mods (1000) reached");
    const g = await t.req("GET", `/api/v1/lists/${fullId}/suggestions`, { user: owner });
    expect(g.body.suggestions[0].status).toBe("pending");
  });
});

describe("blocks", () => {
  test("a blocked user cannot suggest or vote; unblocking restores it", async () => {
    const answers = { [fields.text!]: "x", [fields.checkbox!]: true };
    const pending = await t.req("POST", `/api/v1/lists/${listId}/suggestions`, { user: alice, body: { workshop_id: "4444444444444444", form_answers: answers } });
    expect(pending.status).toBe(200);

    const blocksUrl = `/api/v1/lists/${listId}/blocks`;
    expect((await t.req("POST", blocksUrl, { user: collabAdd, body: { user_id: bob.id } })).status).toBe(403);
    const b = await t.req("POST", blocksUrl, { user: owner, body: { user_id: bob.id } });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ user_id: bob.id, display_name: "Bob", blocked_by: owner.id });
    expect((await t.req("POST", blocksUrl, { user: owner, body: { user_id: bob.id } })).status).toBe(409);
    expect((await t.req("POST", blocksUrl, { user: owner, body: { user_id: "nobody" } })).status).toBe(404);
    expect((await t.req("POST", blocksUrl, { user: owner, body: { user_id: owner.id } })).status).toBe(400);
    const list = await t.req("GET", blocksUrl, { user: owner });
    expect(list.body.blocks.map((x: any) => x.user_id)).toEqual([bob.id]);

    const s = await t.req("POST", `/api/v1/lists/${listId}/suggestions`, { user: bob, body: { workshop_id: "5555555555555555", form_answers: answers } });
    expect(s.status).toBe(403);
    expect(s.body.error).toBe("you are blocked on this list");
    const v = await t.req("POST", `/api/v1/lists/${listId}/suggestions/${pending.body.id}/vote`, { user: bob, body: { vote: 1 } });
    expect(v.status).toBe(403);

    expect((await t.req("DELETE", `${blocksUrl}/${bob.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `${blocksUrl}/${bob.id}`, { user: owner })).status).toBe(404);
    expect((await t.req("POST", `/api/v1/lists/${listId}/suggestions/${pending.body.id}/vote`, { user: bob, body: { vote: 1 } })).status).toBe(200);
  });
});

describe("private lists and the suggestion token", () => {
  test("a stranger needs the suggestion token (query or body) to see the form, suggest and vote", async () => {
    const l = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "Secret", is_public: false } });
    const id = l.body.id;
    const token = l.body.suggestion_token;
    expect(token).not.toBe(suggestionToken);
    const f = await t.req("POST", `/api/v1/lists/${id}/form-fields`, { user: owner, body: { label: "Why", type: "text", required: true } });

    expect((await t.req("GET", `/api/v1/lists/${id}/form-fields`)).status).toBe(404);
    expect((await t.req("GET", `/api/v1/lists/${id}/form-fields?token=wrong`)).status).toBe(404);
    const form = await t.req("GET", `/api/v1/lists/${id}/form-fields?token=${token}`);
    expect(form.status).toBe(200);
    expect(form.body.fields.map((x: any) => x.id)).toEqual([f.body.id]);
    expect((await t.req("GET", `/api/v1/lists/${id}/form-fields?share=${l.body.share_token}`)).status).toBe(200);

    const body = { workshop_id: MOD_A, form_answers: [{ field_id: f.body.id, value: "please" }] };
    const none = await t.req("POST", `/api/v1/lists/${id}/suggestions`, { user: carol, body });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("list not found");
    expect((await t.req("POST", `/api/v1/lists/${id}/suggestions?token=${suggestionToken}`, { user: carol, body })).status).toBe(404);
    const viaQuery = await t.req("POST", `/api/v1/lists/${id}/suggestions?token=${token}`, { user: carol, body });
    expect(viaQuery.status).toBe(200);
    const viaBody = await t.req("POST", `/api/v1/lists/${id}/suggestions`, { user: alice, body: { ...body, workshop_id: MOD_B, suggestion_token: token } });
    expect(viaBody.status).toBe(200);

    expect((await t.req("POST", `/api/v1/lists/${id}/suggestions/${viaQuery.body.id}/vote`, { user: alice, body: { vote: 1 } })).status).toBe(404);
    expect((await t.req("POST", `/api/v1/lists/${id}/suggestions/${viaQuery.body.id}/vote?token=${token}`, { user: alice, body: { vote: 1 } })).body).toEqual({
      votes: 1,
      voted: true,
    });
    // the token gives no read of the suggestions themselves
    expect((await t.req("GET", `/api/v1/lists/${id}/suggestions?token=${token}`, { user: alice })).status).toBe(404);
    // after a reset the old token stops working
    const reset = await t.req("POST", `/api/v1/lists/${id}/suggestion-token/reset`, { user: owner });
    expect(reset.status).toBe(200);
    expect((await t.req("POST", `/api/v1/lists/${id}/suggestions?token=${token}`, { user: carol, body: { ...body, workshop_id: MOD_C } })).status).toBe(404);
    expect((await t.req("POST", `/api/v1/lists/${id}/suggestions?token=${reset.body.suggestion_token}`, { user: carol, body: { ...body, workshop_id: MOD_C } })).status).toBe(
      200,
    );
  });
});
