// Server search as people mean it (search.ts), through a real scan of the fake BattleMetrics and
// GET /game-servers: word starts, the address only for address-like input, whole-name matches first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { parseServerSearch, SEARCH_TEXTS_KEPT, searchWords, serverSearchText } from "./search";

let t: TestApp;
let fake: FakeBattleMetrics;

// Every one on port 2001, as nearly every Reforger server is. Players decide the default order.
const SERVERS: [name: string, scenario: string, players: number][] = [
  ["Server Alpha 01", "Conflict - Everon", 60], // both words, not the whole query
  ["Tactical Ops", "Server 01 Training", 50], // both words in the scenario only
  ["Server 01 | EU", "Conflict - Arland", 40], // the whole query in the name
  ["EU Server 101", "Game Master - Everon", 30], // "01" only inside "101"
  ["[DE] Everon Server 01", "Conflict - Everon", 20], // the whole query in the name
  ["Something Else", "Capture & Hold", 10],
];

beforeAll(async () => {
  const base = generateBmServers(SERVERS.length, { seed: 3 });
  const servers = base.map((s, i) => ({
    ...s,
    attributes: {
      ...s.attributes,
      name: SERVERS[i]![0],
      ip: `198.51.100.${i + 1}`,
      port: 2001,
      players: SERVERS[i]![2],
      maxPlayers: 64,
      details: { ...(s.attributes.details as any), reforger: { ...(s.attributes.details as any).reforger, scenarioName: SERVERS[i]![1] } },
    },
  }));
  fake = startFakeBattleMetrics({ servers });
  t = await createTestApp();
  await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
});
afterAll(async () => {
  fake.stop();
  await t.close();
});

async function found(search: string, sort = "players_desc"): Promise<string[]> {
  const r = await t.req("GET", `/api/v1/game-servers?sort_by=${sort}&search=${encodeURIComponent(search)}`);
  expect(r.status).toBe(200);
  return r.body.map((s: any) => s.name);
}

describe("server search", () => {
  test('"Server 01": servers whose name holds the whole query first, then the rest, each by players; port 2001 matches nothing', async () => {
    expect(await found("Server 01")).toEqual(["Server 01 | EU", "[DE] Everon Server 01", "Server Alpha 01", "Tactical Ops"]);
    // The same partition under another order.
    expect(await found("Server 01", "players_asc")).toEqual(["[DE] Everon Server 01", "Server 01 | EU", "Tactical Ops", "Server Alpha 01"]);
    // Paging runs over the ranked list.
    const r = await t.req("GET", `/api/v1/game-servers?sort_by=players_desc&search=Server%2001&limit=2&offset=1`);
    expect(r.body.map((s: any) => s.name)).toEqual(["[DE] Everon Server 01", "Server Alpha 01"]);
  });

  test("digits are words: 20 and 1 do not match every server on port 2001", async () => {
    expect(await found("20")).toEqual([]);
    expect(await found("2001")).toEqual([]);
    expect(await found("1")).toEqual(["EU Server 101"]); // a word starting with 1
    // One word: servers with it in the name first, then those with it only in the scenario.
    expect(await found("01")).toEqual(["Server Alpha 01", "Server 01 | EU", "[DE] Everon Server 01", "Tactical Ops"]);
  });

  test("address-like input matches the address", async () => {
    expect(await found("198.51.100.3")).toEqual(["Server 01 | EU"]);
    expect(await found("198.51.100.3:2001")).toEqual(["Server 01 | EU"]);
    expect((await found(":2001")).length).toBe(SERVERS.length);
    expect(await found("198.51.100.3 server")).toEqual(["Server 01 | EU"]);
  });

  test("scenario words and case, punctuation and other scripts", async () => {
    expect(await found("arland")).toEqual(["Server 01 | EU"]);
    expect(await found("CAPTURE hold")).toEqual(["Something Else"]);
    expect(await found("[de]")).toEqual(["[DE] Everon Server 01"]);
    expect(await found("ever")).toEqual(["[DE] Everon Server 01", "Server Alpha 01", "EU Server 101"]);
  });

  test("the parts: search text and query", () => {
    expect(serverSearchText("[DE] Everon Server 01", "Conflict - Everon")).toBe(" de everon server 01 \u0001 conflict everon ");
    expect(serverSearchText("Ωmega Сервер", "")).toBe(" ωmega сервер \u0001 ");
    expect(parseServerSearch("Server 01 10.0.1 :2001 host.example:2001 |")).toEqual({
      words: [" server", " 01"],
      address: ["10.0.1", ":2001", "host.example:2001"],
      phrase: " server 01",
    });
    expect(parseServerSearch("   ")).toEqual({ words: [], address: [], phrase: null });
  });

  test("the search texts kept between scans are the texts computed anew, past the most kept too", () => {
    const fresh = (name: string, scenario: string) => {
      const n = searchWords(name).join(" ");
      const s = searchWords(scenario).join(" ");
      return ` ${n}${n ? " " : ""}\u0001 ${s}${s ? " " : ""}`;
    };
    const scenarios = ["Conflict - Everon", "", "Game Master - Arland", "конфликт"];
    const names = Array.from({ length: SEARCH_TEXTS_KEPT + 500 }, (_, i) => (i % 7 === 0 ? `Ωmega ${i}` : i % 11 === 0 ? "" : `[EU] Server ${i % 3000} #${i}`));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < names.length; i++) {
        const sc = scenarios[i % scenarios.length]!;
        expect(serverSearchText(names[i]!, sc)).toBe(fresh(names[i]!, sc));
      }
    }
    // The same name under another scenario is another text.
    expect(serverSearchText("Alpha", "Conflict")).toBe(" alpha \u0001 conflict ");
    expect(serverSearchText("Alpha", "")).toBe(" alpha \u0001 ");
  });
});
