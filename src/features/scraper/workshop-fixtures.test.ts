// The payloads in test/fixtures/workshop/ (written in the shapes public clients of the real site
// captured; see that folder's README) through the real client and normaliser, served over HTTP
// the way the site serves them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { WorkshopClient } from "./workshop-client";
import { normaliseDetail } from "./normalise";

const dir = join(import.meta.dir, "../../../test/fixtures/workshop");
const fixture = (name: string) => Bun.file(join(dir, name)).text();

let server: ReturnType<typeof Bun.serve>;
let client: WorkshopClient;

beforeAll(async () => {
  const files: Record<string, string> = {
    "/_next/data/real-build/workshop.json": await fixture("listing-page.json"),
    "/_next/data/real-build/workshop/5965550F24A0C152-asset.json": await fixture("detail-where-am-i.json"),
    "/_next/data/real-build/workshop/595F2BF2F44836FB-asset.json": await fixture("detail-rhs-status-quo.json"),
  };
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/workshop")
        return new Response(`<html><body><script id="__NEXT_DATA__" type="application/json">{"buildId":"real-build","page":"/workshop"}</script></body></html>`, {
          headers: { "content-type": "text/html" },
        });
      const body = files[path];
      return body ? new Response(body, { headers: { "content-type": "application/json" } }) : new Response("{}", { status: 404 });
    },
  });
  client = new WorkshopClient({ baseUrl: `http://127.0.0.1:${server.port}`, rps: 0 });
});
afterAll(() => server.stop(true));

describe("workshop fixtures in the real shapes", () => {
  test("a listing page: 16 rows, count, thumbnails keyed by MIME type, author roles", async () => {
    const page = await client.listing({ page: 2 });
    expect(page.count).toBe(45380);
    expect(page.rows).toHaveLength(16);
    expect(page.skipped).toEqual([]);
    const barrett = page.rows[0]!;
    expect(barrett).toMatchObject({ id: "5AC2954C784671B3", name: "Barrett M82", currentVersionNumber: "1.2.3", currentVersionSize: 27021149 });
    expect(barrett.author).toMatchObject({ username: "ceo_of_bacon", personalBlocked: false });
    expect(barrett.previews![0]!.thumbnails!["image/jpeg"]!.map((t) => t.width)).toEqual([576, 288]);
    expect(barrett.previews![0]!.contentType).toBe("image/jpeg");
  });

  test("a detail page with a capped version history, ratings and milestone", async () => {
    const d = await client.detail("5965550F24A0C152");
    expect(d.asset.versions).toHaveLength(10);
    expect(d.asset.ratings).toEqual({ likes: 13930, dislikes: 430, rating: 0.97 });
    expect(d.asset.versions[0]).toMatchObject({ version: "1.2.0", milestone: true, assetId: "5965550F24A0C152" });
    const m = normaliseDetail(d);
    expect(m).toMatchObject({ workshop_id: "5965550F24A0C152", name: "Where Am I", version: "1.2.0", size_bytes: 201671, author_name: "ValterB", downloads_total: 1204551 });
    expect(m.versions).toHaveLength(10);
    expect(m.dependencies).toEqual([]);
    expect(m.external_links).toEqual([{ label: "Discord", url: "https://discord.gg/whereami" }]);
    expect(m.image_url).toBe("https://ar-gcp-cdn.bistudio.com/image/full1.jpg");
  });

  test("a mod whose dependency tree is only on the asset keeps it (a node repeated in the tree once)", async () => {
    const d = await client.detail("595F2BF2F44836FB");
    expect(d.versionDetail.dependencies).toEqual([]);
    const m = normaliseDetail(d);
    expect(m.dependencies.map((x) => [x.workshop_id, x.version, x.size_bytes])).toEqual([
      ["1337C0DE5DABBEEF", "0.16.5150", 6343204665],
      ["BADC0DEDABBEDA5E", "0.16.5150", 2393417241],
    ]);
    expect(m.dependency_tree_ids.sort()).toEqual(["1337C0DE5DABBEEF", "BADC0DEDABBEDA5E"]);
    expect(m.scenarios).toEqual([
      {
        game_id: "{B1EAB1A4E5AB9F67}Missions/RHS_Conflict_Everon.conf",
        name: "Conflict - Everon (RHS)",
        game_mode: "Conflict",
        player_count: 128,
        description: "Conflict with RHS assets",
        image_url: "https://ar-gcp-cdn.bistudio.com/image/rhs-conflict.jpg",
      },
    ]);
  });
});
