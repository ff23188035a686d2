// Edit, don't rewrite, end to end (docs/lists.md, docs/deploy.md): the configs of the corpus
// (test/fixtures/server-configs) and variants people write (CRLF, BOM, an id as a big number,
// floats written with .0, "version": "", name before modId) imported into a list, exported and
// imported again (byte-identical), then deployed to a real sshd and the fake panel after a change
// of the list: the server's file read back differs from the original in game.mods only, byte for
// byte; a file with comments comes back as strict JSON that differs from it only by the comments.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { outsideMods } from "../../../../test/config-text";
import { startFakePanel, type FakePanel } from "../../../../test/fakes/panel";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers";
import { makeList, seedMods } from "../../../../test/lists-kit";
import { startSshd, type SshdPeer } from "../../../../test/peers/sshd";
import { parseJsonDocument } from "../../../shared/jsonc";
import { removeJsonValue, strictJsonText } from "../../../shared/json-edit";
import { DEPLOY_JOB } from "./jobs";

const dir = join(import.meta.dir, "../../../../test/fixtures/server-configs");
const textOf = (name: string) => readFileSync(join(dir, name), "utf8");
const EXTRA = "0123456789ABCDEF";

/** The corpus, and variants of its 140-mod file written the ways people write them. */
function corpus(): [string, string][] {
  const big = textOf("full-140-mods.json");
  return [
    ["full-commented.json", textOf("full-commented.json")],
    ["full-required-default-false.json", textOf("full-required-default-false.json")],
    ["full-140-mods.json", big],
    ["full-no-mods.json", textOf("full-no-mods.json")],
    ["full-utf8-bom.json", textOf("full-utf8-bom.json")],
    ["panel-egg-template.json", textOf("panel-egg-template.json")],
    ["140 mods, CRLF", big.replace(/\r?\n/g, "\r\n")],
    ["140 mods, BOM", `\ufeff${big}`],
    ["an admin id as a big number", big.replace(/"admins": \[[^\]]*\]/, '"admins": [76561198200329058, "76561198000000001"]')],
    ["floats written with .0", big.replace(/"maxPlayers": (\d+)/, '"maxPlayers": $1.0').replace(/"networkViewDistance": (\d+)/, '"networkViewDistance": $1.0')],
    ['"version": "" for the newest', big.replace(/("modId": "[0-9A-F]{16}",\s*"name": "[^"]*")(\s*)}/g, '$1, "version": ""$2}')],
    ["name before modId", big.replace(/"modId": ("[0-9A-F]{16}"),(\s*)"name": ("[^"]*")/g, '"name": $3,$2"modId": $1')],
  ];
}

let t: TestApp;
let owner: TestUser;
let panel: FakePanel;
let sshd: SshdPeer;

beforeAll(async () => {
  t = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
  owner = await t.createUser({ display_name: "Owner" });
  panel = startFakePanel();
  sshd = await startSshd();
  // The catalog knows every mod of the corpus at the versions the files pin.
  const seen = new Map<string, Set<string>>();
  for (const [, text] of corpus()) {
    const mods = ((parseJsonDocument(text).value as any).game?.mods ?? []) as { modId: string; version?: string }[];
    for (const m of mods) {
      const v = seen.get(m.modId) ?? seen.set(m.modId, new Set(["9.0.0"])).get(m.modId)!;
      if (m.version) v.add(m.version);
    }
  }
  seen.set(EXTRA, new Set(["1.0.0"]));
  seedMods(t, [...seen].map(([id, v]) => ({ id, name: `Catalog name of ${id}`, versions: [...v].sort(), version: [...v].sort().at(-1)! })));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await panel?.stop();
  await sshd?.stop();
});

const raw = { "content-type": "text/plain" };

async function server(listId: string, kind: "panel" | "sftp", file: string, text: string) {
  let path = file;
  if (kind === "panel") panel.files.set(file, text);
  else path = sshd.writeFile(file.replace(/^\//, ""), text);
  const s = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: kind, connection_type: kind, file_path: path, linked_list_id: listId } });
  expect(s.status).toBe(200);
  const creds =
    kind === "panel"
      ? { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid }
      : { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password };
  expect((await t.req("POST", `/api/v1/servers/${s.body.id}/credentials`, { user: owner, body: creds })).status).toBeLessThan(300);
  return { id: s.body.id as string, read: () => (kind === "panel" ? panel.files.get(file)! : sshd.readFile(file.replace(/^\//, ""))) };
}

describe("the corpus: import, export, deploy; only game.mods changes", () => {
  let n = 0;
  for (const [name, text] of corpus()) {
    test(name, async () => {
      n++;
      const l = await makeList(t, owner, { name: `corpus ${n}` });
      const applied = await t.req("POST", `/api/v1/lists/${l.id}/import-apply?check_order=true`, { user: owner, raw: text, headers: raw });
      expect(applied.status).toBe(200);

      // export/game is the file (strict JSON); exported → imported → exported is byte-identical.
      const first = (await t.req("GET", `/api/v1/lists/${l.id}/export/game`, { user: owner })).text;
      expect(first).toBe(strictJsonText(text));
      const again = await t.req("POST", `/api/v1/lists/${l.id}/import-apply?check_order=true`, { user: owner, raw: first, headers: raw });
      expect(again.body).toEqual({ ok: true, added: 0, removed: 0, version_changed: 0 });
      expect((await t.req("GET", `/api/v1/lists/${l.id}/export/game`, { user: owner })).text).toBe(first);

      // A change of the list: the first mod goes, one comes.
      const items = (await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner })).body.items as { workshop_id: string }[];
      if (items[0]) expect((await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${items[0].workshop_id}`, { user: owner })).status).toBeLessThan(300);
      expect((await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: EXTRA, with_dependencies: false } })).status).toBeLessThan(300);

      for (const kind of ["panel", "sftp"] as const) {
        const s = await server(l.id, kind, `/corpus-${n}-${kind}.json`, text);
        // An admin id written as a number is a config the game refuses (the pre-flight says so): forced here, to see its digits kept.
        const force = name === "an admin id as a big number";
        const d = await t.req("POST", `/api/v1/servers/${s.id}/deploy`, { user: owner, body: force ? { force } : {} });
        expect(d.status).toBe(200);
        await t.deps.jobs.drain({ types: [DEPLOY_JOB] });
        const done = (await t.req("GET", `/api/v1/servers/${s.id}/deployments`, { user: owner })).body[0];
        expect(done).toMatchObject({ status: "success" });
        const back = s.read();
        // Strict JSON the game reads, differing from the original in game.mods only (comments aside).
        expect(() => JSON.parse(back.replace(/^\ufeff/, ""))).not.toThrow();
        const hadMods = (parseJsonDocument(text).value as any).game.mods !== undefined;
        if (hadMods) expect(outsideMods(back)).toBe(outsideMods(strictJsonText(text)));
        // A file without game.mods gets it, laid out like the file: with it taken out again, the file is the original.
        else expect(removeJsonValue(back, ["game", "mods"])).toBe(strictJsonText(text));
        const mods = (parseJsonDocument(back).value as any).game.mods.map((m: any) => m.modId);
        expect(mods).toEqual([...items.slice(1).map((i) => i.workshop_id), EXTRA]);
        // Deploying the same list again writes the same bytes.
        await t.req("POST", `/api/v1/servers/${s.id}/deploy`, { user: owner, body: force ? { force } : {} });
        await t.deps.jobs.drain({ types: [DEPLOY_JOB] });
        expect(s.read()).toBe(back);
        if (force) expect(back).toContain("[76561198200329058, ");
      }
    });
  }
});
