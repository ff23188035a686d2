// Benchmark seed: a database of realistic shape and size, written through the real schema.
//
//   bun bench/seed.ts --scale full|small [--out bench/data/<scale>.db]
//
// The app's own migrations run first (openDatabase + migrate from src/db/client.ts), then every
// table is filled with raw prepared bun:sqlite statements inside big transactions. Everything
// comes from one seeded PRNG (mulberry32), so two runs give the same rows (ids included);
// only the timestamps are relative to the seed's "now" (rounded to 5 minutes), because the
// live feature's "online" means "seen in the last hour". A sidecar <out>.meta.json records that
// "now", the counts, the seed time and the ids the benchmark needs (lists of 130 and 1,000 mods,
// a busy server, a mod with a deep dependency chain, the bench user's API key).
// Over 500 lines on purpose: one script that writes every table the benchmark reads, in one pass.
import { serverSearchText } from "../src/features/live/search";
import { liveRepo, TOP_MODS, topOfUsage } from "../src/features/live/repository";
import { bulkLoadSeries } from "../src/features/live/series-days";
import { mkdirSync, rmSync, existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { openDatabase, migrate } from "../src/db/client";
import { readMigrations } from "../src/db/migrations.macro";
import { mulberry32 } from "../test/fixtures/prng";
import { argOf } from "./args";

// ------------------------------------------------------------------------------------------
// Scale

export interface Scale {
  mods: number;
  versionsPerMod: number; // average
  servers: number; // known
  online: number;
  offlineWithMods: number; // fraction of offline servers that still carry their last mod list
  modsPerServer: number; // average; busy servers ~130
  historyDays: number;
  growthDays: number;
  users: number;
  lists: number;
  lists1000: number;
  lists130: number;
  communities: number;
  groups: number;
}

export const SCALES: Record<string, Scale> = {
  full: {
    mods: 42_000, versionsPerMod: 5, servers: 95_000, online: 5_000, offlineWithMods: 0.3, modsPerServer: 40,
    historyDays: 365, growthDays: 180, users: 1_000, lists: 5_000, lists1000: 40, lists130: 100, communities: 120, groups: 300,
  },
  small: {
    mods: 1_500, versionsPerMod: 5, servers: 2_000, online: 120, offlineWithMods: 0.3, modsPerServer: 40,
    historyDays: 30, growthDays: 14, users: 40, lists: 120, lists1000: 2, lists130: 3, communities: 6, groups: 10,
  },
};

// ------------------------------------------------------------------------------------------
// Deterministic randomness

let rnd = mulberry32(0x10ad07);
/** Each phase restarts the PRNG from its own seed, so a phase's rows never depend on how many
 * numbers an earlier phase drew (some draws depend on where "now" falls in a 3-hour block). */
const reseed = (phase: number) => {
  rnd = mulberry32(0x10ad07 + phase * 7919);
};
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const chance = (p: number) => rnd() < p;
/** Zipf-like index in [0, n): small indexes far more likely. */
const zipf = (n: number, s = 1.1) => Math.min(n - 1, Math.floor(n * Math.pow(rnd(), 1 + s * 2)));
const hex = (n: number) => {
  let s = "";
  for (let i = 0; i < n; i++) s += "0123456789ABCDEF"[Math.floor(rnd() * 16)];
  return s;
};
/** A UUIDv7-shaped id (time-ordered by `ms`), from the PRNG. */
function uuid7(ms: number): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  const r = hex(20).toLowerCase();
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(0, 3)}-${"89ab"[Math.floor(rnd() * 4)]}${r.slice(3, 6)}-${r.slice(6, 18)}`;
}

/** A UUIDv4-shaped token from the PRNG (share and suggestion tokens). */
function uuid4(): string {
  const r = hex(32).toLowerCase();
  return `${r.slice(0, 8)}-${r.slice(8, 12)}-4${r.slice(13, 16)}-${"89ab"[Math.floor(rnd() * 4)]}${r.slice(17, 20)}-${r.slice(20, 32)}`;
}

const WORDS_A = ["Tactical", "Realistic", "Enhanced", "Advanced", "Modern", "Cold War", "Everon", "Arland", "Conflict", "Combat", "Ultimate", "Extended", "Improved", "Dynamic", "Immersive", "Heavy", "Light", "Special", "Project", "Operation", "Task Force", "RHS", "ACE", "Elite", "Warfare"];
const WORDS_B = ["Weapons", "Vehicles", "Helicopters", "Uniforms", "Gear", "Optics", "Sounds", "Medical", "Artillery", "Radio", "Maps", "Terrain", "Loadouts", "Factions", "AI", "Physics", "Ballistics", "Armor", "Boats", "Aircraft", "Scopes", "Attachments", "Effects", "Camps", "Missions", "Framework", "Core", "Compat", "Patch", "Pack"];
const WORDS_C = ["", "", "", " Redux", " Reloaded", " Plus", " Lite", " 2", " Remastered", " Overhaul", " Expansion", " Addon", " Fix", " Collection", " Legacy"];
const AUTHORS = Array.from({ length: 1_500 }, (_, i) => `${pick(["Bravo", "Echo", "Kilo", "Ghost", "Viper", "Wolf", "Hawk", "Raven", "Sierra", "Delta", "Nomad", "Rogue"])}${pick(["Six", "Actual", "Studio", "Team", "Mods", "Works", "Lab", "Unit", "Crew"])}${i % 97}`);
const TAGS = ["WEAPONS", "VEHICLES", "CHARACTERS", "SCENARIOS", "TERRAINS", "SYSTEMS", "SOUNDS", "AUDIO", "EFFECTS", "UI", "GAMEMODE", "COMPOSITIONS", "MISC", "SERVER", "CLIENT", "MILITARY", "HISTORICAL", "COOP", "PVP", "MULTIPLAYER"];
const LOREM = "the of and to a in is it you that he was for on are with as his they be at one have this from or had by hot word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new work part take get place made live where after back little only round man year came show every good me give our under name very through just form sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house picture try us again animal point mother world near build self earth father".split(" ");
const lorem = (n: number) => Array.from({ length: n }, () => pick(LOREM)).join(" ");
const SCENARIOS = ["Conflict - Everon", "Conflict - Arland", "Game Master - Everon", "Combat Ops - Arland", "Capture & Hold: Briars Coast", "Frontline Everon", "Escapists", "Combat Ops - Everon", "KOTH Everon", "Operation Omega"];
const COUNTRIES = ["DE", "US", "GB", "FR", "PL", "CZ", "RU", "NL", "SE", "AU", "CA", "BR", "JP", "IT", "ES"];
const SERVER_WORDS = ["Official", "EU", "US", "Hardcore", "Casual", "Milsim", "Conflict", "Realism", "PvE", "PvP", "Community", "Training", "Public", "Tactical", "Vanilla", "Modded", "Zeus", "Combat", "Ops", "Frontline", "Noob friendly", "Veteran"];

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const THREE_HOURS = 3 * HOUR;
const FIVE_MIN = 5 * MIN;

// ------------------------------------------------------------------------------------------

/** API keys of the bench user (not secrets: the seeded database is for benchmarks only). */
export const BENCH_API_KEYS = 1_000;
export const benchApiKey = (k: number) => `lo_benchmark-key-not-a-secret-${String(k).padStart(6, "0")}`;
export const BENCH_PASSWORD = "bench-password-1";

/** Hashes of the migrations the database was built with (a regenerated drizzle/ makes it stale). */
export const schemaFingerprint = (): string[] => readMigrations(resolve(import.meta.dir, "../drizzle")).map((m) => m.hash);

export interface SeedMeta {
  scale: string;
  schema: string[];
  now: number;
  seeded_at: string;
  seconds: number;
  phases: Record<string, number>;
  counts: Record<string, number>;
  db_bytes: number;
  ids: {
    api_key: string;
    api_keys: number;
    user_id: string;
    list130: string;
    list1000: string;
    list1000_other: string;
    mod_detail: string;
    mod_deep: string;
    mod_popular: string;
    server_busy: string;
    server_typical: string;
    community_slug: string;
    community_id: string;
    search_terms: string[];
    autocomplete_terms: string[];
    popular_mod_ids: string[];
    tag: string;
  };
}

export async function seed(scaleName: string, out: string): Promise<SeedMeta> {
  const S = SCALES[scaleName];
  if (!S) throw new Error(`unknown scale ${scaleName} (full | small)`);
  const started = performance.now();
  const phases: Record<string, number> = {};
  let phaseStart = performance.now();
  const phase = (name: string) => {
    const t = performance.now();
    phases[name] = Math.round(t - phaseStart) / 1000;
    phaseStart = t;
    console.log(`  ${name.padEnd(22)} ${phases[name]!.toFixed(1)} s`);
  };

  mkdirSync(dirname(out), { recursive: true });
  for (const f of [out, `${out}-wal`, `${out}-shm`]) if (existsSync(f)) rmSync(f);
  const { db, sqlite } = openDatabase(out);
  migrate(db);
  phase("migrations");
  // Bulk load: no journal, no fsync, foreign keys checked by construction (parents first).
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite.exec("PRAGMA journal_mode = DELETE");
  sqlite.exec("PRAGMA journal_mode = OFF");
  sqlite.exec("PRAGMA synchronous = OFF");
  sqlite.exec("PRAGMA foreign_keys = OFF");
  sqlite.exec("PRAGMA cache_size = -1000000");

  const now = Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN;
  const counts: Record<string, number> = {};
  const tx = (fn: () => void) => sqlite.transaction(fn)();

  // ---------------------------------------------------------------- users
  reseed(1);
  const passwordHash = await Bun.password.hash(BENCH_PASSWORD, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
  const userIds: string[] = [];
  const userNames: string[] = [];
  tx(() => {
    const ins = sqlite.prepare(
      `INSERT INTO users (id, email, email_verified, display_name, password_hash, role, is_approved, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?, 1, ?, ?)`,
    );
    for (let i = 0; i < S.users; i++) {
      const created = now - int(1, 700) * DAY;
      const id = uuid7(created);
      const name = i === 0 ? "Bench User" : `${pick(["Sgt", "Cpl", "Pvt", "Lt", "Cpt", "Maj"])} ${pick(WORDS_A)} ${i}`;
      ins.run(id, i === 0 ? "bench@bench.local" : `user${i}@bench.local`, name, passwordHash, i === 1 ? "admin" : "user", created, created);
      userIds.push(id);
      userNames.push(name);
    }
    // The bench user's API keys: the rate limiter counts per credential (1,200 a minute), so
    // the load generator rotates over many keys, like many clients of one account would.
    const key = sqlite.prepare(`INSERT INTO api_keys (id, user_id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    for (let k = 0; k < BENCH_API_KEYS; k++) {
      const value = benchApiKey(k);
      key.run(uuid7(now - DAY), userIds[0]!, `bench ${k}`, value.slice(0, 10), new Bun.CryptoHasher("sha256").update(value).digest("hex"), now - DAY);
    }
  });
  counts.users = S.users;
  phase("users");

  // ---------------------------------------------------------------- mods
  reseed(2);
  const modIds: string[] = [];
  const modNames: string[] = [];
  const modVersion: string[] = [];
  const modVersionsList: string[][] = [];
  const modSize: number[] = [];
  const modUpdated: number[] = [];
  const seenIds = new Set<string>();
  for (let i = 0; i < S.mods; i++) {
    let id = hex(16);
    while (seenIds.has(id)) id = hex(16);
    seenIds.add(id);
    modIds.push(id);
  }
  // Dependencies: each mod may depend on mods with a smaller index (libraries are older and
  // more popular), keeping chains at most 6 deep; a few 2-cycles exist, as on the workshop.
  const depth = new Int8Array(S.mods);
  const depsOf: number[][] = Array.from({ length: S.mods }, () => []);
  for (let i = 1; i < S.mods; i++) {
    const want = chance(0.45) ? 0 : chance(0.6) ? 1 : chance(0.6) ? 2 : int(3, 6);
    for (let k = 0; k < want; k++) {
      // Prefer popular libraries, sometimes a recent mod (which lengthens chains).
      const j = chance(0.7) ? zipf(Math.min(i, 2_000)) : int(Math.max(0, i - 400), i - 1);
      if (j >= i || depsOf[i]!.includes(j) || depth[j]! >= 6) continue;
      depsOf[i]!.push(j);
      depth[i] = Math.max(depth[i]!, depth[j]! + 1);
    }
  }
  // Force a handful of long chains so "up to 6 deep" exists at every scale.
  let deepMod = 0;
  for (let c = 0; c < 20; c++) {
    const chain = Array.from({ length: 7 }, () => int(Math.floor(S.mods * 0.5), S.mods - 1)).sort((a, b) => a - b);
    const uniq = [...new Set(chain)];
    for (let k = 1; k < uniq.length; k++) {
      const [i, j] = [uniq[k]!, uniq[k - 1]!];
      if (!depsOf[i]!.includes(j)) depsOf[i]!.push(j);
    }
    deepMod = uniq[uniq.length - 1]!;
  }
  const cycles: [number, number][] = [];
  for (let c = 0; c < Math.max(3, Math.floor(S.mods / 4000)); c++) {
    const a = int(100, S.mods - 1);
    const b = int(100, S.mods - 1);
    if (a !== b) cycles.push([a, b]);
  }
  for (const [a, b] of cycles) {
    if (!depsOf[a]!.includes(b)) depsOf[a]!.push(b);
    if (!depsOf[b]!.includes(a)) depsOf[b]!.push(a);
  }

  tx(() => {
    const insMod = sqlite.prepare(`INSERT INTO mods (workshop_id, name, summary, description, author_id, author_name, type, license, version,
      size_bytes, image_url, game_version, rating, rating_count, subscriber_count, downloads_total, state, obsolete, tags_json,
      external_links_json, created_at, updated_at, listed_at, detail_scraped_at)
      VALUES (?, ?, ?, ?, ?, ?, 'addon', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`);
    const insVer = sqlite.prepare(`INSERT INTO mod_versions (workshop_id, version, game_version, size_bytes, changelog, approved, published,
      scenarios_count, dependencies_count, created_at) VALUES (?, ?, ?, ?, ?, 1, 1, ?, ?, ?)`);
    const insTag = sqlite.prepare(`INSERT INTO mod_tags (workshop_id, tag) VALUES (?, ?)`);
    const insShot = sqlite.prepare(`INSERT INTO mod_screenshots (workshop_id, position, url, width, height) VALUES (?, ?, ?, 1920, 1080)`);
    const insScen = sqlite.prepare(`INSERT INTO mod_scenarios (workshop_id, version, game_id, name, game_mode, player_count, description, image_url, position)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insItem = sqlite.prepare(`INSERT OR IGNORE INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const insScan = sqlite.prepare(`INSERT INTO mod_item_scans (workshop_id, version, item_count, scanned_at) VALUES (?, ?, ?, ?)`);
    let nv = 0, nt = 0, ns = 0, nsc = 0, ni = 0;
    for (let i = 0; i < S.mods; i++) {
      const id = modIds[i]!;
      const name = `${pick(WORDS_A)} ${pick(WORDS_B)}${pick(WORDS_C)}${chance(0.3) ? ` ${int(1, 999)}` : ""}`;
      const author = pick(AUTHORS);
      const created = now - int(30, 1_000) * DAY - int(0, DAY);
      const nVersions = Math.max(1, Math.min(40, Math.round(S.versionsPerMod * (0.2 + rnd() * 1.6) + (chance(0.05) ? int(5, 25) : 0))));
      const size = Math.round(Math.exp(13 + rnd() * 8)); // ~0.4 MB .. 1.3 GB, log-uniform
      const versions: string[] = [];
      let t = created;
      const span = now - created;
      let major = 0, minor = int(0, 3), patch = 0;
      for (let v = 0; v < nVersions; v++) {
        if (chance(0.1)) { major++; minor = 0; patch = 0; } else if (chance(0.4)) { minor++; patch = 0; } else patch++;
        const ver = `${major}.${minor}.${patch}`;
        t = v === 0 ? created : t + Math.floor((span / nVersions) * (0.3 + rnd()));
        if (t > now) t = now - int(1, 10) * HOUR;
        versions.push(ver);
        insVer.run(id, ver, `1.${int(0, 2)}.${int(0, 9)}.${int(10, 200)}`, Math.round(size * (0.6 + (0.4 * (v + 1)) / nVersions)),
          `- ${lorem(int(4, 14))}\n- ${lorem(int(4, 14))}`, chance(0.1) ? int(1, 5) : 0, depsOf[i]!.length, t);
        nv++;
      }
      const latest = versions[versions.length - 1]!;
      const tags = [...new Set(Array.from({ length: int(1, 4) }, () => TAGS[zipf(TAGS.length, 0.5)]!))];
      for (const tg of tags) { insTag.run(id, tg); nt++; }
      const updated = Math.min(now - HOUR, t);
      insMod.run(id, name, lorem(int(8, 25)), lorem(int(40, 160)), hex(16), author, chance(0.3) ? "APL-SA" : null, latest, size,
        `https://ar-gcp-cdn.bistudio.com/image/${id.toLowerCase()}.jpg`, `1.${int(0, 2)}.${int(0, 9)}.${int(10, 200)}`,
        Math.round(rnd() * 100) / 100, int(0, 5_000), Math.max(0, Math.round(200_000 / (1 + i / 30) * rnd())), int(0, 2_000_000),
        chance(0.01) ? pick(["private", "removed", "blocked"]) : "active", JSON.stringify(tags),
        chance(0.3) ? JSON.stringify([{ label: "Discord", url: `https://discord.gg/${hex(8)}` }]) : "[]",
        created, updated, now - int(0, 6) * HOUR, now - int(0, 30) * DAY);
      modNames.push(name);
      modVersion.push(latest);
      modVersionsList.push(versions);
      modSize.push(size);
      modUpdated.push(updated);
      for (let p = 0, n = int(0, 5); p < n; p++) { insShot.run(id, p, `https://ar-gcp-cdn.bistudio.com/image/${id.toLowerCase()}-${p}.jpg`); ns++; }
      if (chance(0.12)) {
        for (let p = 0, n = int(1, 5); p < n; p++) {
          insScen.run(id, latest, `{${hex(16)}}Missions/${pick(WORDS_B)}_${p}.conf`, `${pick(SCENARIOS)} ${p}`, pick(["Conflict", "Game Master", "Combat Ops", "PvP"]),
            pick([16, 32, 64, 128]), lorem(20), null, p);
          nsc++;
        }
      }
      if (chance(0.15)) {
        // Items for the last two versions (so diff and server detail mod_items have data).
        for (const ver of versions.slice(-2)) {
          const n = int(3, 40);
          for (let k = 0; k < n; k++) {
            const type = pick(["vehicle", "weapon", "gear"] as const);
            const nm = `${pick(WORDS_A)}_${pick(WORDS_B)}_${k}`;
            const path = `Prefabs/${type === "vehicle" ? "Vehicles" : type === "weapon" ? "Weapons" : "Characters"}/${nm}.et`;
            insItem.run(id, ver, path.toLowerCase(), type, nm, path, null);
            ni++;
          }
          insScan.run(id, ver, n, now - int(1, 300) * DAY);
        }
      }
    }
    const insDep = sqlite.prepare(`INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name, version, size_bytes) VALUES (?, ?, ?, ?, ?)`);
    let nd = 0;
    for (let i = 0; i < S.mods; i++) {
      for (const j of depsOf[i]!) {
        insDep.run(modIds[i]!, modIds[j]!, modNames[j]!, modVersion[j]!, modSize[j]!);
        nd++;
      }
    }
    // A few dependencies that are not in the catalog (the catalog keeps their name).
    for (let k = 0; k < Math.floor(S.mods / 500); k++) {
      insDep.run(modIds[int(0, S.mods - 1)]!, hex(16), `Missing ${pick(WORDS_B)}`, "1.0.0", int(1_000_000, 90_000_000));
      nd++;
    }
    Object.assign(counts, { mods: S.mods, mod_versions: nv, mod_tags: nt, mod_dependencies: nd, mod_screenshots: ns, mod_scenarios: nsc, mod_items: ni });
  });
  phase("mods");

  // ---------------------------------------------------------------- communities, folders, tags
  reseed(3);
  const communityIds: string[] = [];
  const communitySlugs: string[] = [];
  tx(() => {
    const ins = sqlite.prepare(`INSERT INTO communities (id, owner_id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    const mem = sqlite.prepare(`INSERT OR IGNORE INTO community_members (community_id, user_id, role, added_at) VALUES (?, ?, ?, ?)`);
    for (let i = 0; i < S.communities; i++) {
      const id = uuid7(now - int(10, 600) * DAY);
      const owner = userIds[i === 0 ? 0 : int(0, S.users - 1)]!;
      const name = `${pick(SERVER_WORDS)} ${pick(WORDS_B)} Group ${i}`;
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
      ins.run(id, owner, name, slug, lorem(12), now - 100 * DAY);
      mem.run(id, owner, "owner", now - 100 * DAY);
      for (let k = 0, n = int(2, 25); k < n; k++) mem.run(id, userIds[int(0, S.users - 1)]!, "member", now - int(1, 90) * DAY);
      communityIds.push(id);
      communitySlugs.push(slug);
    }
  });
  phase("communities");

  // ---------------------------------------------------------------- game servers + current mods
  reseed(4);
  const usedPool = Math.min(S.mods, Math.max(500, Math.floor(S.mods * 0.2))); // mods servers actually run
  const serverIds: string[] = [];
  const onlineSids: number[] = [];
  const serverLimit: number[] = [];
  const serverPop: number[] = [];
  let busyServer = "", typicalServer = "";
  let serverModRows = 0;
  tx(() => {
    const ins = sqlite.prepare(`INSERT INTO game_servers (id, sid, source, source_id, host_address, name, ip, port, country, player_count,
      player_count_limit, queue_players_count, wait_time_estimation, scenario_name, game_version, password_protected, official, tags,
      search_text, mods_count, mods_size_bytes, mods_hash, online, players_sum_7d, samples_7d, avg_players_7d, community_id,
      first_seen_at, last_seen_at) VALUES (?, ?, 'battlemetrics', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // A server's mod list is one row (a6_server_mod_lists.sql): [workshop_id, name, version, position] by position.
    const insMods = sqlite.prepare(`INSERT INTO game_server_mod_lists (server_sid, mods) VALUES (?, ?)`);
    for (let s = 0; s < S.servers; s++) {
      const online = s < S.online;
      const sid = s + 1;
      const ipN = 0x0a000000 + s * 7 + 13;
      const ip = `${(ipN >>> 24) & 255}.${(ipN >>> 16) & 255}.${(ipN >>> 8) & 255}.${ipN & 255}`;
      const port = 2001 + (s % 5);
      const host = `${ip}:${port}`;
      const official = online && s % 50 === 0;
      const name = official
        ? `Official ${pick(SCENARIOS)} #${s}`
        : `[${pick(COUNTRIES)}] ${pick(SERVER_WORDS)} ${pick(SERVER_WORDS)} ${pick(WORDS_B)} ${s}`;
      const scenario = pick(SCENARIOS);
      const limit = pick([32, 64, 64, 96, 128, 128]);
      const pop = Math.pow(rnd(), 2.2); // most servers near empty, a few full
      const first = now - (chance(0.7) ? S.historyDays * DAY : int(1, S.historyDays) * DAY);
      const last = online ? now - int(0, 4) * MIN : first + Math.floor((now - HOUR - first) * rnd());
      const nMods = online
        ? (s % 40 === 1 ? int(120, 140) : chance(0.1) ? 0 : Math.max(1, Math.round(S.modsPerServer * (0.3 + rnd() * 1.4))))
        : chance(S.offlineWithMods) ? int(1, 60) : 0;
      const players = online ? Math.round(limit * pop * (0.6 + 0.4 * rnd())) : 0;
      const queue = online && players >= limit - 2 ? int(0, 20) : 0;
      const tags = [",battleye", nMods > 0 ? "modded" : "vanilla", chance(0.8) ? "pc" : "xbox", chance(0.2) ? "crossplay" : null].filter(Boolean).join(",") + ",";
      const id = uuid7(first);
      let size = 0;
      const chosen = new Set<number>();
      while (chosen.size < nMods) chosen.add(zipf(usedPool, 0.9));
      let pos = 0;
      const entries: [string, string, string, number][] = [];
      for (const m of chosen) {
        entries.push([modIds[m]!, chance(0.9) ? modNames[m]! : "", chance(0.9) ? modVersion[m]! : pick(modVersionsList[m]!), pos++]);
        size += modSize[m]!;
      }
      if (entries.length > 0) insMods.run(sid, JSON.stringify(entries));
      serverModRows += nMods;
      const avg7 = online ? limit * pop * 0.75 : 0;
      const samples = online ? 7 * 288 : 0;
      const community = chance(0.05) && communityIds.length ? pick(communityIds) : null;
      ins.run(id, sid, String(1_000_000 + s), host, name, ip, port, pick(COUNTRIES), players, limit, queue, queue ? queue * 30 : 0, scenario,
        "1.2.0.81", chance(0.15) ? 1 : 0, official ? 1 : 0, tags, serverSearchText(name, scenario), nMods, size, hex(16).toLowerCase(),
        online ? 1 : 0, Math.round(avg7 * samples), samples, avg7, community, first, last);
      serverIds.push(id);
      serverLimit.push(limit);
      serverPop.push(pop);
      if (online) onlineSids.push(sid);
      if (online && nMods >= 120 && !busyServer) busyServer = id;
      if (online && nMods >= 35 && nMods <= 45 && !typicalServer) typicalServer = id;
    }
  });
  counts.game_servers = S.servers;
  counts.game_servers_online = S.online;
  counts.game_server_mods = serverModRows;
  phase("game servers");

  // ---------------------------------------------------------------- mod changelog (365 days)
  reseed(5);
  tx(() => {
    // One change per event, each its own row of the changelog (a3_changelog_events.sql).
    const ins = sqlite.prepare(`INSERT INTO game_server_mod_events (server_sid, time, n, changes) VALUES (?, ?, 1, ?)`);
    const events: [number, number][] = [];
    for (const sid of onlineSids) {
      const n = int(10, 120);
      for (let k = 0; k < n; k++) events.push([now - Math.floor(rnd() * S.historyDays * DAY), sid]);
    }
    events.sort((a, b) => a[0] - b[0]); // ids grow with time, as the scan writes them
    for (const [t, sid] of events) {
      const m = zipf(usedPool, 0.9);
      const action = pick(["added", "removed", "updated", "updated"]);
      const vs = modVersionsList[m]!;
      ins.run(sid, t, JSON.stringify([[action, modIds[m]!, modNames[m]!, action === "added" ? null : vs[Math.max(0, vs.length - 2)]!,
        action === "removed" ? null : vs[vs.length - 1]!, modSize[m]!]]));
    }
    counts.game_server_mod_changes = events.length;
  });
  phase("mod changelog");

  // ---------------------------------------------------------------- player history
  reseed(6);
  /** Every mod's usage in the seeded hour (the player history's phase counts it, the growth's reads it). */
  const modUsage = new Map<string, { name: string; s: number; p: number }>();
  // Stored as the live feature keeps it: raw 5-minute points for 24 h, hourly buckets for 14 days,
  // 3-hour buckets for a year (n, sums, maxima), plus the global and per-community series, with
  // the roll-up watermarks `hourly_until` and `3h_until` in live_state.
  const hourNow = Math.floor(now / HOUR) * HOUR;
  const blockNow = Math.floor(hourNow / THREE_HOURS) * THREE_HOURS;
  const rawFrom = now - DAY;
  const hourlyFrom = Math.floor((now - 14 * DAY) / HOUR) * HOUR;
  const threeFrom = Math.floor((now - S.historyDays * DAY) / THREE_HOURS) * THREE_HOURS;
  const nRaw = Math.floor((now - rawFrom) / FIVE_MIN) + 1;
  const nHourly = (hourNow - hourlyFrom) / HOUR;
  const n3h = (blockNow - threeFrom) / THREE_HOURS;
  const gRaw = { p: new Float64Array(nRaw), q: new Float64Array(nRaw), s: new Float64Array(nRaw) };
  const gH = { p: new Float64Array(nHourly), m: new Float64Array(nHourly), q: new Float64Array(nHourly), s: new Float64Array(nHourly) };
  const g3 = { p: new Float64Array(n3h), m: new Float64Array(n3h), q: new Float64Array(n3h), s: new Float64Array(n3h) };
  // Daily curve: evenings busy, mornings empty.
  const curve = (t: number) => 0.55 + 0.45 * Math.sin(((t % DAY) / DAY) * 2 * Math.PI - Math.PI / 2 - 0.6);
  let statRows = 0;
  // The day rows of the 3-hour and hourly buckets (src/features/live/series-days.ts) are built in
  // one pass after the load instead of by their per-row triggers.
  bulkLoadSeries(sqlite, () => tx(() => {
    const insRaw = sqlite.prepare(`INSERT INTO game_server_stats_raw (sid, time, players, queue, wait) VALUES (?, ?, ?, ?, ?)`);
    const insH = sqlite.prepare(`INSERT INTO game_server_stats_hourly (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    const ins3 = sqlite.prepare(`INSERT INTO game_server_stats_3h (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const sid of onlineSids) {
      const s = sid - 1;
      const limit = serverLimit[s]!;
      const pop = serverPop[s]!;
      const firstT = now - (chance(0.75) ? S.historyDays * DAY : int(1, S.historyDays) * DAY);
      const level = (t: number) => Math.min(limit, Math.max(0, Math.round(limit * pop * curve(t) * (0.85 + 0.3 * rnd()))));
      for (let i = 0; i < n3h; i++) {
        const t = threeFrom + i * THREE_HOURS;
        if (t < firstT) continue;
        const p = level(t + 90 * MIN);
        const mx = Math.min(limit, p + int(0, 6));
        const q = p >= limit - 2 ? int(0, 10) : 0;
        ins3.run(sid, t, 36, p * 36, mx, q * 36, q, q * 30 * 36);
        g3.p[i]! += p; g3.m[i]! += mx; g3.q[i]! += q; g3.s[i]! += 1;
        statRows++;
      }
      for (let i = 0; i < nHourly; i++) {
        const t = hourlyFrom + i * HOUR;
        if (t < firstT) continue;
        const p = level(t + 30 * MIN);
        const mx = Math.min(limit, p + int(0, 4));
        const q = p >= limit - 2 ? int(0, 10) : 0;
        insH.run(sid, t, 12, p * 12, mx, q * 12, q, q * 30 * 12);
        gH.p[i]! += p; gH.m[i]! += mx; gH.q[i]! += q; gH.s[i]! += 1;
        statRows++;
      }
      for (let i = 0; i < nRaw; i++) {
        const t = rawFrom + i * FIVE_MIN;
        const p = level(t);
        const q = p >= limit - 2 ? int(0, 10) : 0;
        insRaw.run(sid, t, p, q, q * 30);
        gRaw.p[i]! += p; gRaw.q[i]! += q; gRaw.s[i]! += 1;
        statRows++;
      }
    }
    const gr = sqlite.prepare(`INSERT INTO live_global_stats_raw (time, players, queue, servers) VALUES (?, ?, ?, ?)`);
    for (let i = 0; i < nRaw; i++) gr.run(rawFrom + i * FIVE_MIN, gRaw.p[i]!, gRaw.q[i]!, gRaw.s[i]!);
    const gh = sqlite.prepare(`INSERT INTO live_global_stats_hourly (time, n, players_sum, players_max, queue_sum, servers_sum, servers_max) VALUES (?, 12, ?, ?, ?, ?, ?)`);
    for (let i = 0; i < nHourly; i++) gh.run(hourlyFrom + i * HOUR, gH.p[i]! * 12, Math.round(gH.p[i]! * 1.05), gH.q[i]! * 12, gH.s[i]! * 12, gH.s[i]!);
    const g3s = sqlite.prepare(`INSERT INTO live_global_stats_3h (time, n, players_sum, players_max, queue_sum, servers_sum, servers_max) VALUES (?, 36, ?, ?, ?, ?, ?)`);
    for (let i = 0; i < n3h; i++) g3s.run(threeFrom + i * THREE_HOURS, g3.p[i]! * 36, Math.round(g3.p[i]! * 1.08), g3.q[i]! * 36, g3.s[i]! * 36, g3.s[i]!);
    // Community series (communities with servers): scaled copies of the global curve.
    const cr = sqlite.prepare(`INSERT INTO live_community_stats_raw (community_id, time, players, queue, servers) VALUES (?, ?, ?, ?, ?)`);
    const ch = sqlite.prepare(`INSERT INTO live_community_stats_hourly (community_id, time, n, players_sum, players_max, queue_sum, servers_sum, servers_max) VALUES (?, ?, 12, ?, ?, ?, ?, ?)`);
    const c3 = sqlite.prepare(`INSERT INTO live_community_stats_3h (community_id, time, n, players_sum, players_max, queue_sum, servers_sum, servers_max) VALUES (?, ?, 36, ?, ?, ?, ?, ?)`);
    const withServers = sqlite.query(`SELECT community_id AS c, count(*) AS n FROM game_servers WHERE community_id IS NOT NULL AND online = 1 GROUP BY 1`).all() as { c: string; n: number }[];
    for (const { c, n } of withServers) {
      const f = n / Math.max(1, S.online);
      for (let i = 0; i < nRaw; i++) cr.run(c, rawFrom + i * FIVE_MIN, Math.round(gRaw.p[i]! * f), Math.round(gRaw.q[i]! * f), n);
      for (let i = 0; i < nHourly; i++) ch.run(c, hourlyFrom + i * HOUR, Math.round(gH.p[i]! * f) * 12, Math.round(gH.m[i]! * f), Math.round(gH.q[i]! * f) * 12, n * 12, n);
      for (let i = 0; i < n3h; i++) c3.run(c, threeFrom + i * THREE_HOURS, Math.round(g3.p[i]! * f) * 36, Math.round(g3.m[i]! * f), Math.round(g3.q[i]! * f) * 36, n * 36, n);
    }
    const st = sqlite.prepare(`INSERT OR REPLACE INTO live_state (key, value) VALUES (?, ?)`);
    st.run("hourly_until", hourNow);
    st.run("3h_until", blockNow);
    st.run("last_scan_at", now);
    st.run("mod_usage_at", now);
    // Every mod's usage in the hour (its servers and their players) as a scan counts it, once:
    // the growth rows below start from it too.
    for (const r of sqlite
      .query(
        `SELECT gm.workshop_id, coalesce(nullif(max(m.name), ''), max(gm.name), '') AS name, count(*) AS s, sum(g.player_count) AS p
         FROM game_servers g JOIN game_server_mods_by_sid gm ON gm.server_sid = g.sid LEFT JOIN mods m ON m.workshop_id = gm.workshop_id
         WHERE g.last_seen_at >= ? GROUP BY gm.workshop_id`,
      )
      .all(now - HOUR) as { workshop_id: string; name: string; s: number; p: number }[])
      modUsage.set(r.workshop_id, r);
    // Its top, as live repository writeModUsage keeps it (names roughly: the next scan writes its own).
    const top = sqlite.prepare(`INSERT INTO live_mod_usage (workshop_id, name, server_count, player_count, updated_at) VALUES (?, ?, ?, ?, ?)`);
    for (const [id] of topOfUsage([...modUsage].map(([id, u]): [string, number] => [id, u.s]), TOP_MODS)) {
      const u = modUsage.get(id)!;
      top.run(id, u.name, u.s, u.p, now);
    }
    // The named row per mod the usage's names come from, as the scan keeps it (a4_mod_names.sql).
    liveRepo.refreshModNames(sqlite);
  }));
  counts.stat_rows = statRows;
  phase("player history");

  // ---------------------------------------------------------------- catalog growth (180 days)
  reseed(7);
  // Compact like the roll-up writes it: a row only when a mod's values changed; every bucket in
  // mod_growth_buckets; the last row per mod in mod_growth_latest.
  let growthRows = 0;
  tx(() => {
    const bucketNow = Math.floor(now / THREE_HOURS);
    const nb = S.growthDays * 8;
    const firstB = bucketNow - nb + 1;
    const insB = sqlite.prepare(`INSERT INTO mod_growth_buckets (bucket, created_at) VALUES (?, ?)`);
    for (let b = firstB; b <= bucketNow; b++) insB.run(b, b * THREE_HOURS + int(0, 120_000));
    const dependents = new Map<string, number>();
    for (const r of sqlite.query(`SELECT depends_on_id AS id, count(*) AS n FROM mod_dependencies GROUP BY 1`).all() as any[]) dependents.set(r.id, r.n);
    const ins = sqlite.prepare(`INSERT INTO mod_growth (workshop_id, bucket, used_by_servers, players_using, dependencies, dependents) VALUES (?, ?, ?, ?, ?, ?)`);
    const latest = sqlite.prepare(`INSERT INTO mod_growth_latest (workshop_id, bucket, used_by_servers, players_using, dependencies, dependents) VALUES (?, ?, ?, ?, ?, ?)`);
    for (let i = 0; i < S.mods; i++) {
      const id = modIds[i]!;
      const u = modUsage.get(id);
      const deps = depsOf[i]!.length;
      const dpt = dependents.get(id) ?? 0;
      let last: [number, number, number, number, number] | null = null;
      if (u) {
        // Used mods change often: players move every bucket, server counts drift.
        for (let b = firstB; b <= bucketNow; b++) {
          if (last && !chance(0.55)) continue;
          const f = (b - firstB + 1) / nb;
          const sv = Math.max(0, Math.round(u.s * (0.5 + 0.5 * f) * (0.9 + 0.2 * rnd())));
          const pl = Math.max(0, Math.round(u.p * (0.5 + 0.5 * f) * curve(b * THREE_HOURS) * 1.3));
          last = [b, sv, pl, deps, Math.round(dpt * (0.7 + 0.3 * f))];
          ins.run(id, ...last);
          growthRows++;
        }
      } else {
        const n = int(1, 3);
        for (let k = 0; k < n; k++) {
          const b = firstB + Math.floor(((nb - 1) * k) / n);
          last = [b, 0, 0, deps, Math.round(dpt * ((k + 1) / n))];
          ins.run(id, ...last);
          growthRows++;
        }
      }
      latest.run(id, ...last!);
    }
  });
  counts.mod_growth = growthRows;
  phase("catalog growth");

  // ---------------------------------------------------------------- lists and collaboration
  reseed(8);
  let list130 = "", list1000 = "", list1000Other = "";
  let nItems = 0, nAudit = 0, nSnap = 0;
  tx(() => {
    const folderIns = sqlite.prepare(`INSERT INTO folders (id, owner_id, name, created_at) VALUES (?, ?, ?, ?)`);
    const tagIns = sqlite.prepare(`INSERT INTO tags (id, owner_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)`);
    const foldersOf = new Map<number, string[]>();
    const tagsOf = new Map<number, string[]>();
    for (let u = 0; u < S.users; u++) {
      const fs: string[] = [];
      for (let k = 0, n = chance(0.4) ? int(1, 4) : 0; k < n; k++) {
        const id = uuid7(now - int(1, 300) * DAY);
        folderIns.run(id, userIds[u]!, `${pick(WORDS_B)} folder`, now - 30 * DAY);
        fs.push(id);
      }
      foldersOf.set(u, fs);
      const ts: string[] = [];
      for (let k = 0, n = chance(0.3) ? int(1, 5) : 0; k < n; k++) {
        const id = uuid7(now - int(1, 300) * DAY);
        tagIns.run(id, userIds[u]!, pick(["coop", "pvp", "milsim", "training", "event", "test", "main", "weekend"]), `#${hex(6).toLowerCase()}`, now - 30 * DAY);
        ts.push(id);
      }
      tagsOf.set(u, ts);
    }
    const listIns = sqlite.prepare(`INSERT INTO lists (id, owner_id, name, description, is_public, share_token, suggestion_token, require_deploy_approval,
      community_id, folder_id, max_mod_age_days, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`);
    const itemIns = sqlite.prepare(`INSERT INTO list_items (list_id, workshop_id, name, position, pinned_version, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const auditIns = sqlite.prepare(`INSERT INTO list_audit (id, list_id, action, workshop_id, mod_name, old_value, new_value, user_id, reverted, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const snapIns = sqlite.prepare(`INSERT INTO list_snapshots (id, list_id, version_name, tag, notes, is_release, snapshot_json, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const ltIns = sqlite.prepare(`INSERT OR IGNORE INTO list_tags (list_id, tag_id, created_at) VALUES (?, ?, ?)`);
    const pinIns = sqlite.prepare(`INSERT OR IGNORE INTO list_pins (user_id, list_id, created_at) VALUES (?, ?, ?)`);
    const coIns = sqlite.prepare(`INSERT OR IGNORE INTO list_owners (list_id, user_id, added_at) VALUES (?, ?, ?)`);
    const colIns = sqlite.prepare(`INSERT OR IGNORE INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, ?, ?, ?, ?)`);
    const listIds: string[] = [];
    for (let l = 0; l < S.lists; l++) {
      // The first lists are the benchmark's: 1,000 mods, then 130 mods; the bench user owns one of each.
      let size: number;
      if (l < S.lists1000) size = 1_000;
      else if (l < S.lists1000 + S.lists130) size = 130;
      else size = Math.max(1, Math.min(400, Math.round(Math.exp(2 + rnd() * 3.2))));
      size = Math.min(size, S.mods);
      const ownerIdx = l === 0 || l === S.lists1000 ? 0 : int(0, S.users - 1);
      const created = now - int(1, 500) * DAY;
      const id = uuid7(created);
      const isPublic = l < S.lists1000 + S.lists130 ? 1 : chance(0.6) ? 1 : 0;
      const folders = foldersOf.get(ownerIdx)!;
      listIns.run(id, userIds[ownerIdx]!, `${pick(SERVER_WORDS)} ${pick(WORDS_B)} modpack ${l}`, lorem(int(0, 30)), isPublic, uuid4(), uuid4(),
        chance(0.1) ? 1 : 0, chance(0.1) ? pick(communityIds) : null, folders.length && chance(0.5) ? pick(folders) : null, created, now - int(0, 30) * DAY);
      listIds.push(id);
      if (l === 0) list1000 = id;
      if (l === 1) list1000Other = id;
      if (l === S.lists1000) list130 = id;
      const chosen = new Set<number>();
      // Big lists: a popular core plus a long tail; small ones mostly popular mods.
      while (chosen.size < size) chosen.add(chance(0.7) ? zipf(Math.min(S.mods, 6_000), 0.6) : int(0, S.mods - 1));
      let pos = 0;
      let t = created;
      const adder = userIds[ownerIdx]!;
      for (const m of chosen) {
        t += int(1, 600) * 1000;
        const pinned = chance(0.15) ? pick(modVersionsList[m]!) : null;
        itemIns.run(id, modIds[m]!, modNames[m]!, pos++, pinned, adder, t);
        auditIns.run(uuid7(t), id, "add_mod", modIds[m]!, modNames[m]!, null, null, adder, 0, t);
        nItems++;
        nAudit++;
      }
      // Some removals, version changes and an import in the history.
      for (let k = 0, n = int(0, 8); k < n; k++) {
        const m = int(0, S.mods - 1);
        t += int(1, 3_600) * 1000;
        const action = pick(["remove_mod", "update_version"]);
        auditIns.run(uuid7(t), id, action, modIds[m]!, modNames[m]!, JSON.stringify({ version: pick(modVersionsList[m]!) }),
          action === "update_version" ? JSON.stringify({ version: modVersion[m]! }) : null, adder, chance(0.1) ? 1 : 0, t);
        nAudit++;
      }
      if (chance(0.2)) {
        t += 60_000;
        auditIns.run(uuid7(t), id, "import", null, null, JSON.stringify({ removed: [], version_changed: [] }),
          JSON.stringify({ added: [...chosen].slice(0, 5).map((m) => ({ workshop_id: modIds[m], name: modNames[m], version: modVersion[m] })), version_changed: [] }), adder, 0, t);
        nAudit++;
      }
      if (chance(0.2) || l < 2) {
        for (let k = 0, n = int(1, 3); k < n; k++) {
          const json = JSON.stringify([...chosen].map((m) => ({ modId: modIds[m], name: modNames[m], version: modVersion[m] })));
          snapIns.run(uuid7(t), id, `v${k + 1}`, k === 0 ? "stable" : null, lorem(8), k === 0 ? 1 : 0, json, adder, t - k * DAY);
          nSnap++;
        }
      }
      const ts = tagsOf.get(ownerIdx)!;
      if (ts.length && chance(0.5)) ltIns.run(id, pick(ts), now - DAY);
      if (chance(0.1)) coIns.run(id, userIds[int(0, S.users - 1)]!, now - int(1, 100) * DAY);
      if (chance(0.3)) for (let k = 0, n = int(1, 5); k < n; k++) colIns.run(id, userIds[int(0, S.users - 1)]!, 1, chance(0.5) ? 1 : 0, chance(0.2) ? 1 : 0, now - int(1, 100) * DAY);
      if (chance(0.2)) pinIns.run(userIds[int(0, S.users - 1)]!, id, now - DAY);
    }
    // Permission groups: members, co-owners, assignments to lists.
    const gIns = sqlite.prepare(`INSERT INTO permission_groups (id, owner_id, name, description, can_add, can_remove, can_deploy, community_id, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const gm = sqlite.prepare(`INSERT OR IGNORE INTO group_members (group_id, user_id, added_at) VALUES (?, ?, ?)`);
    const go = sqlite.prepare(`INSERT OR IGNORE INTO group_owners (group_id, user_id, added_at) VALUES (?, ?, ?)`);
    const lg = sqlite.prepare(`INSERT OR IGNORE INTO list_groups (list_id, group_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, ?, ?, ?, ?)`);
    for (let g = 0; g < S.groups; g++) {
      const id = uuid7(now - int(1, 300) * DAY);
      gIns.run(id, userIds[int(0, S.users - 1)]!, `${pick(WORDS_A)} team ${g}`, lorem(6), 1, chance(0.4) ? 1 : 0, chance(0.2) ? 1 : 0,
        chance(0.3) ? pick(communityIds) : null, now - 50 * DAY, now - 5 * DAY);
      for (let k = 0, n = int(2, 30); k < n; k++) gm.run(id, userIds[int(0, S.users - 1)]!, now - int(1, 50) * DAY);
      if (chance(0.3)) go.run(id, userIds[int(0, S.users - 1)]!, now - 10 * DAY);
      for (let k = 0, n = int(1, 6); k < n; k++) lg.run(pick(listIds), id, chance(0.7) ? null : 1, chance(0.7) ? null : 0, null, now - 10 * DAY);
    }
  });
  Object.assign(counts, { lists: S.lists, list_items: nItems, list_audit: nAudit, list_snapshots: nSnap });
  phase("lists");

  // ---------------------------------------------------------------- notifications
  reseed(9);
  let nNotif = 0;
  tx(() => {
    const ins = sqlite.prepare(`INSERT INTO notifications (id, user_id, event, event_id, title, body, list_id, data, read, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, '{}', ?, ?)`);
    for (let u = 0; u < S.users; u++) {
      const n = u === 0 ? 500 : int(0, 40);
      for (let k = 0; k < n; k++) {
        const t = now - int(1, 90 * 24) * HOUR;
        ins.run(uuid7(t), userIds[u]!, pick(["mod_added", "mod_removed", "mod_updated", "version_changed"]), uuid7(t), "Mod updated", lorem(10), u === 0 ? (k % 4 === 0 ? 0 : 1) : chance(0.3) ? 0 : 1, t);
        nNotif++;
      }
    }
  });
  counts.notifications = nNotif;
  phase("notifications");

  sqlite.exec("ANALYZE");
  sqlite.exec("PRAGMA journal_mode = WAL");
  phase("analyze");
  sqlite.close();

  const dbBytes = statSync(out).size;
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  // Bench targets: a mod with a 6-deep chain, a popular library, search words that hit.
  const depRoot = modIds[deepMod]!;
  const popular = [...Array(Math.min(10, S.mods)).keys()].map((i) => modIds[i]!);
  const meta: SeedMeta = {
    scale: scaleName,
    schema: schemaFingerprint(),
    now,
    seeded_at: new Date().toISOString(),
    seconds,
    phases,
    counts,
    db_bytes: dbBytes,
    ids: {
      api_key: benchApiKey(0),
      api_keys: BENCH_API_KEYS,
      user_id: userIds[0]!,
      list130,
      list1000,
      list1000_other: list1000Other,
      mod_detail: modIds[Math.min(S.mods - 1, 1234)]!,
      mod_deep: depRoot,
      mod_popular: modIds[0]!,
      server_busy: busyServer,
      server_typical: typicalServer || busyServer,
      community_slug: communitySlugs[0]!,
      community_id: communityIds[0]!,
      search_terms: ["tactical weapons", "everon", "heavy arm", "radio"],
      autocomplete_terms: ["tac", "ever", "rhs", "hea", "mod"],
      popular_mod_ids: popular,
      tag: "WEAPONS",
    },
  };
  writeFileSync(`${out}.meta.json`, JSON.stringify(meta, null, 2));
  return meta;
}

if (import.meta.main) {
  const scale = argOf("scale", "small");
  const out = resolve(argOf("out", `bench/data/${scale}.db`));
  console.log(`seeding scale=${scale} → ${out}`);
  const meta = await seed(scale, out);
  console.log(`done in ${meta.seconds} s; database ${(meta.db_bytes / 1048576).toFixed(1)} MiB`);
  console.log(JSON.stringify(meta.counts));
}
