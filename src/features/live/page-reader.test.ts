// readPageBytes (the page read from its bytes, its servers' mod lists left there until asked:
// page-reader.ts) against the reading it replaced: Response.json() (JSON.parse of the decoded
// bytes), then readPage/bmPageSchema and readServer/bmServerSchema + normaliseServer. On generated
// pages, hand-made pages of every shape a mod list and its path can take, pages changed field by
// field and pages with random bytes changed, both give the same servers (their mods read), the
// same skipped counts and next links, and refuse the same pages.
import { describe, expect, test } from "bun:test";
import {
  BattleMetricsError,
  bmPageSchema,
  bmServerSchema,
  InvalidJsonError,
  normaliseServer,
  rawModsHash,
  rawModsParsed,
  readPage,
  readPageBytes,
  readServer,
  type LiveServer,
} from "./battlemetrics";
import { generateBmServers, loadBmFixture } from "../../../test/fakes/battlemetrics";
import { mulberry32 } from "../../../test/fixtures/prng";
import { mutated, paths } from "../../../test/mutations";

type Outcome = { json: false } | { page: string } | { servers: string; skipped: number; next: string | null | undefined };

/** What the client read before: Response.json(), readPage or zod, readServer or zod. */
async function before(bytes: Uint8Array): Promise<Outcome> {
  let body: unknown;
  try {
    body = await new Response(bytes).json();
  } catch {
    return { json: false };
  }
  let page = readPage(body);
  if (!page) {
    const parsed = bmPageSchema.safeParse(body);
    if (!parsed.success) return { page: `invalid page: ${parsed.error.issues[0]?.message ?? "?"}` };
    page = { data: parsed.data.data, next: parsed.data.links?.next };
  }
  const servers: LiveServer[] = [];
  let skipped = 0;
  for (const item of page.data) {
    const mine = readServer(item);
    if (mine) servers.push(mine);
    else {
      const parsed = bmServerSchema.safeParse(item);
      if (parsed.success) servers.push(normaliseServer(parsed.data));
      else skipped++;
    }
  }
  return { servers: JSON.stringify(servers), skipped, next: page.next };
}

function after(bytes: Uint8Array): Outcome {
  try {
    const p = readPageBytes(bytes);
    // JSON.stringify reads every server's mods (key order and values compared as text).
    return { servers: JSON.stringify(p.servers), skipped: p.skipped, next: p.next };
  } catch (err) {
    if (err instanceof InvalidJsonError) return { json: false };
    if (err instanceof BattleMetricsError) return { page: err.message };
    throw err;
  }
}

const enc = new TextEncoder();
const counts = { read: 0, json: 0, page: 0 };
async function expectSame(page: string | Uint8Array) {
  const bytes = typeof page === "string" ? enc.encode(page) : page;
  const old = await before(bytes);
  const mine = after(bytes);
  if (JSON.stringify(mine) !== JSON.stringify(old)) {
    throw new Error(`differs on ${new TextDecoder().decode(bytes).slice(0, 2000)}\nbefore ${JSON.stringify(old).slice(0, 500)}\nafter  ${JSON.stringify(mine).slice(0, 500)}`);
  }
  counts["json" in old ? "json" : "page" in old ? "page" : "read"]++;
  return old;
}

const pageOf = (data: unknown[], links: unknown = { next: "https://api.example/servers?page[key]=2" }) => JSON.stringify({ data, links, included: [] });

/** A plainly valid server with `mods` as the given JSON text (undefined: no mods key). */
function server(mods: string | undefined, { id = "1", details, reforger }: { id?: string; details?: string; reforger?: string } = {}) {
  const r = reforger ?? `{"scenarioName":"S","supportedGameClientTypes":["PLATFORM_PC"],"battlEye":true${mods === undefined ? "" : `,"mods":${mods}`}}`;
  const d = details ?? `{"version":"1.2","password":false,"official":false,"reforger":${r}}`;
  return `{"type":"server","id":"${id}","attributes":{"id":"${id}","name":"N","ip":"10.0.0.1","port":2001,"players":3,"maxPlayers":64,"status":"online","details":${d}}}`;
}
const M = `{"modId":"5965550F24A0C152","name":"Where Am I","version":"1.2.0"}`;
const M2 = `{"modId":"591AF5BDA9F7CE8B","name":"Second","version":"1.0.4"}`;
const pageText = (...servers: string[]) => `{"data":[${servers.join(",")}],"links":{"next":"https://api.example/n"}}`;

/** Mod list texts: valid ones of every shape, and invalid JSON inside the list. */
const validLists = [
  "[]",
  "[ ]",
  " [ \n\t\r ] ",
  "null",
  `[${M}]`,
  `[${M},${M2}]`,
  `[${M2},${M},${M2}]`,
  `["5965550F24A0C152"]`,
  `["5965550f24a0c152", " 591AF5BDA9F7CE8B\\n", "591af5bda9f7ce8b"]`,
  `[1, null, true, false, {"modId":1}, "bad", [], {}, "5965550F24A0C152"]`,
  `[[], {}, 0, -0, 1e5, 1.5E-3, -12.25e+10, 0.0, 123456789012345678901234567890]`,
  `[{"modId":"\\u0035965550F24A0C152","name":"a\\"mods\\":[1]","version":"1\\\\"}]`,
  `[{"modId":"5965550F24A0C152","name":"\\\\","version":"\\\\\\""}]`,
  `[{"modId":"5965550F24A0C152","name":"Мод ⚙ 😀 \\ud83d\\ude00 \\u00e9","version":"\\/\\b\\f\\n\\r\\t"}]`,
  `[{"modId":"5965550F24A0C152","modId":"591AF5BDA9F7CE8B","name":1,"version":null}]`,
  `[{"name":"x","modId":"5965550F24A0C152","mods":[1,2,{"mods":"x"}]}]`,
  `[ { "modId" : "5965550F24A0C152" , "name" : "x" } , "591AF5BDA9F7CE8B" ]`,
  `[{"modId":"5965550F24A0C152","name":"]","version":"["}, "}", "{"]`,
  JSON.stringify(Array.from({ length: 300 }, (_, k) => ({ modId: (0x5a00000000000000n + BigInt(k % 250)).toString(16).toUpperCase(), name: `Mod ${k}`, version: "1" }))),
  `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
  // Shaped like the reader's placeholder (it carries a tag a page cannot foresee).
  "[0]",
  "[1]",
  `[0,"x"]`,
  `"5965550F24A0C152"`,
  "5",
  "{}",
  `{"modId":"5965550F24A0C152"}`,
  "true",
];
const invalidLists = [
  "[1,]",
  "[,1]",
  "[01]",
  "[1.]",
  "[.5]",
  "[+1]",
  "[-]",
  "[1e]",
  "[1e+]",
  "[NaN]",
  "[Infinity]",
  "[tru]",
  "[nul]",
  "[falsey]",
  "[1 2]",
  `["\\x"]`,
  `["\\u12"]`,
  `["\\u12G4"]`,
  `["a\nb"]`,
  `["a\tb"]`,
  `["a\u0000b"]`,
  `["abc]`,
  `[{"modId":"x",}]`,
  `[{"modId" "x"}]`,
  `[{modId:"x"}]`,
  `[{"modId":"x"]`,
  "[",
  "[[]",
  "[]]",
  `['x']`,
  "[\u00a0]",
  "[\f]",
];

describe("readPageBytes", () => {
  test("reads generated pages and the fixtures as Response.json() and the readers did, and leaves their lists unread", async () => {
    const generated = generateBmServers(600, { seed: 5, modPool: 400 });
    for (let p = 0; p < 6; p++) expect(await expectSame(pageOf(generated.slice(p * 100, p * 100 + 100)))).toHaveProperty("servers");
    await expectSame(pageOf([...loadBmFixture("scan-1"), ...loadBmFixture("scan-2")], null));
    await expectSame(JSON.stringify({ data: generated.slice(0, 20), links: {} }, null, 2));
    await expectSame(JSON.stringify({ data: generated.slice(0, 20) }, null, "\t").replaceAll("\n", "\r\n"));
    // Read without asking for the lists: none is parsed, the servers are tagged as their lists say.
    const read = readPageBytes(enc.encode(pageOf(generated.slice(0, 100)))).servers;
    expect(read.map(rawModsParsed)).toEqual(read.map(() => false));
    expect(read.map((s) => s.tags.includes("modded"))).toEqual(generated.slice(0, 100).map((g: any) => g.attributes.details.reforger.mods.length > 0));
    expect(read.filter((s) => s.tags.includes("vanilla")).length).toBeGreaterThan(0);
    // The same bytes hash the same; other bytes otherwise.
    const again = readPageBytes(enc.encode(pageOf(generated.slice(0, 100)))).servers;
    expect(again.map(rawModsHash)).toEqual(read.map(rawModsHash));
    expect(new Set(read.map(rawModsHash)).size).toBeGreaterThan(80);
    expect(read.map(rawModsParsed)).toEqual(read.map(() => false));
  });

  test("every shape of mod list, valid or not, at its path and elsewhere, with duplicate and escaped keys", async () => {
    for (const l of [...validLists, ...invalidLists]) {
      await expectSame(pageText(server(l)));
      await expectSame(pageText(server(l), server(`[${M}]`, { id: "2" }), server(l, { id: "3" })));
      // Duplicate keys: JSON.parse keeps the last one, at every level of the path.
      await expectSame(pageText(server(undefined, { reforger: `{"mods":${l},"mods":[${M}]}` })));
      await expectSame(pageText(server(undefined, { reforger: `{"mods":[${M}],"mods":${l}}` })));
      await expectSame(pageText(server(undefined, { details: `{"reforger":{"mods":[${M2}]},"reforger":{"mods":${l}}}` })));
      await expectSame(pageText(server(undefined, { details: `{"reforger":{"mods":${l}},"reforger":null}` })));
      // Escaped keys are the same keys.
      await expectSame(pageText(server(undefined, { reforger: `{"m\\u006fds":${l}}` })));
      await expectSame(pageText(server(undefined, { reforger: `{"mods":[${M}],"\\u006d\\u006f\\u0064\\u0073":${l}}` })));
      await expectSame(pageText(server(undefined, { details: `{"re\\u0066orger":{"mods":${l}}}` })));
      // `mods` elsewhere is not the list.
      await expectSame(pageText(server(undefined, { details: `{"mods":${l},"reforger":{"mods":[${M}]}}` })));
      await expectSame(`{"mods":${l},"data":[${server(`[${M}]`)}],"links":{"mods":${l}}}`);
      await expectSame(`{"data":[${server(`[${M}]`).replace(`"type"`, `"mods":${l},"type"`)}]}`);
      await expectSame(`{"data":[${server(`[${M}]`).replace(`"name":"N"`, `"name":"N","mods":${l}`)}]}`);
      await expectSame(`{"included":[${server(l)}],"data":[${server(`[${M2}]`)}]}`);
      await expectSame(`{"data":[{"data":[${server(l)}]}]}`);
      await expectSame(`[${server(l)}]`);
      await expectSame(`{"data":[[${server(l)}]]}`);
      // Strings that look like the path.
      await expectSame(pageText(server(`[${M}]`).replace(`"name":"N"`, `"name":"\\"mods\\":${l.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replace(/[\u0000-\u001f]/g, "")}"`)));
      await expectSame(pageText(server(`[{"modId":"5965550F24A0C152","name":"\\\\\\"mods\\":[1]\\\\"}]`)));
    }
    // Duplicate `data`, `attributes`, `details` and whole pages of whitespace.
    await expectSame(`{"data":[${server(`[${M}]`)}],"data":[${server(`[${M2}]`, { id: "2" })}]}`);
    await expectSame(`{"d\\u0061ta":[${server(`[${M}]`)}]}`);
    await expectSame(`{"data":[${server(`[${M}]`).replace(`"attributes":{`, `"attributes":{"details":{"reforger":{"mods":[${M2}]}},`)}]}`);
    await expectSame(`{"data":[${server(`[${M}]`).replace(`"type":"server",`, `"type":"server","attributes":{"details":{"reforger":{"mods":[${M2}]}}},`)}]}`);
    await expectSame(` \r\n\t${pageText(server(`[${M}]`)).replace(/([,:{}[\]])/g, " \n$1\t\r ")} \n`);
    // Missing or null details and reforger, and the page's own shapes.
    await expectSame(pageText(server(undefined, { details: "null" }), server(undefined, { reforger: "null" }), server(`[${M}]`).replace(`,"details":`, `,"x":`)));
    for (const p of ["", " ", "null", "[]", "{}", `{"data":null}`, `{"data":{}}`, `{"data":[],"links":null}`, `{"data":[],"links":{"next":null}}`, `{"data":[],"links":{"next":5}}`, `{"data":[],"links":[]}`, `{"data":[1,"x",null]}`, `{"data":[]} x`, `{"data":[]}{}`, `{"data":[]`, `{"data":[]}\u0000`]) {
      await expectSame(p);
    }
  });

  test("bytes as Response.json() decodes them: a BOM, malformed UTF-8 in and out of strings, nesting past the tokenizer's depth", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const text = enc.encode(pageText(server(`[${M}, "Ω"]`)));
    const cat = (...parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let o = 0;
      for (const p of parts) (out.set(p, o), (o += p.length));
      return out;
    };
    await expectSame(cat(bom, text));
    await expectSame(cat(bom, bom, text));
    for (const bad of [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0x80, 0x80]]) {
      const at = [...text].findIndex((c, k) => c === 0x22 && text[k - 1] === 0x2c) + 1; // inside the second list entry
      await expectSame(cat(text.subarray(0, at), new Uint8Array(bad), text.subarray(at)));
      const name = new TextDecoder().decode(text).indexOf("Where") ; // inside a mod name
      await expectSame(cat(text.subarray(0, name), new Uint8Array(bad), new Uint8Array([0x22]), text.subarray(name)));
      await expectSame(cat(text.subarray(0, 1), new Uint8Array(bad), text.subarray(1))); // outside strings
    }
    const deep = (k: number) => "[".repeat(k) + "]".repeat(k);
    for (const k of [60, 63, 64, 65, 200, 5000]) {
      await expectSame(pageText(server(`[${M},${deep(k)}]`)));
      await expectSame(pageText(server(`[${M},${deep(k)}`)));
    }
  });

  test("pages changed field by field, and pages with random bytes changed, inserted or removed", async () => {
    const base = [...generateBmServers(3, { seed: 9, modPool: 400 }).map((s: any) => ((s.attributes.details.reforger.mods = s.attributes.details.reforger.mods.slice(0, 3)), s))];
    const values: unknown[] = [undefined, null, 7, -1.5e-7, "", "5965550F24A0C152", " 5965550f24a0c152", true, [], {}, [1], ["x"], { modId: 1 }, { mods: [] }];
    for (const path of paths(base[0])) {
      for (const v of values) await expectSame(pageOf([mutated(base[0], path, v), base[1]]));
    }
    const rnd = mulberry32(29);
    const alphabet = enc.encode(`"\\{}[],:  \n0123456789.eE+-tfnrulsaubx/mods\u00e9`);
    const texts = [enc.encode(pageOf(base)), enc.encode(pageText(server(validLists[11]!), server(validLists[9]!, { id: "2" })))];
    for (let k = 0; k < 4000; k++) {
      const src = texts[k % texts.length]!;
      const edits = 1 + Math.floor(rnd() * 3);
      let b = src;
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rnd() * b.length);
        const c = alphabet[Math.floor(rnd() * alphabet.length)]!;
        const op = rnd();
        const next = new Uint8Array(b.length + (op < 0.33 ? 1 : op < 0.66 ? -1 : 0));
        if (op < 0.33) (next.set(b.subarray(0, at)), (next[at] = c), next.set(b.subarray(at), at + 1));
        else if (op < 0.66) (next.set(b.subarray(0, at)), next.set(b.subarray(at + 1), at));
        else (next.set(b), (next[at] = c));
        b = next;
      }
      await expectSame(b);
    }
    // Enough of each outcome to mean something.
    expect(counts.read).toBeGreaterThan(1000);
    expect(counts.json).toBeGreaterThan(1000);
    expect(counts.page).toBeGreaterThan(10);
  });
});
