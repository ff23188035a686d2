// Mixed writes under load (docs/performance.md "Writes under load"): N clients writing to the lists
// the bench user shares, while a separate process asks GET /api/v1/health every 20 ms and records
// how long each answer took. A stall of the whole process (a long synchronous piece of work on the
// event loop) shows in the health checks' maximum, whatever endpoint caused it.
//
//   bun bench/writes.ts --probe <health url> <milliseconds>    (the prober; prints JSON)
//
// Each client owns one (list, mod) slot, a mod not in that list, and cycles through
//   POST /lists/:id/mods {workshop_id}              → mod_added
//   PUT  /lists/:id/mods/:mod/version {version}     → version_changed (pin)
//   PUT  /lists/:id/mods/:mod/version {null}        → version_changed (unpin)
//   DELETE /lists/:id/mods/:mod                     → mod_removed
// so every request is a real change with an event for the list's owners (the dispatcher's
// fan-out runs in the service while the writes go on), and every answer should be 2xx.
// Fetch loops rather than autocannon: each client's requests depend on the previous one's state.
import { Database } from "bun:sqlite";
import { spawn } from "bun";
import { join } from "node:path";

export interface WriteSlot {
  list: string;
  mod: string;
  version: string;
}

export interface WritePlan {
  lists: string[];
  slots: WriteSlot[];
}

export interface HealthProbes {
  probes: number;
  /** Longest wait for a health answer during the writes (ms). */
  max: number;
  p99: number;
  /** Probes that waited longer than 100 ms. */
  over_100ms: number;
  failed: number;
}

/** One measurement: clients, requests, throughput and latencies (ms), refusals and failures. */
export interface LoadFigures {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

export interface WriteLoad extends LoadFigures {
  /** First non-2xx answers, for the log. */
  samples: string[];
  health: HealthProbes | null;
}

/**
 * The lists the bench user owns (primary or co-owner) with room for more mods, and for each
 * client a mod none of those lists holds with a version the catalog knows.
 */
export function writePlan(dbPath: string, userId: string, clients: number): WritePlan {
  const db = new Database(dbPath, { readonly: true });
  const lists = (db
    .query(`SELECT l.id FROM lists l
      WHERE (l.owner_id = $u OR EXISTS (SELECT 1 FROM list_owners o WHERE o.list_id = l.id AND o.user_id = $u))
        AND l.max_mod_age_days IS NULL
        AND (SELECT count(*) FROM list_items i WHERE i.list_id = l.id) < 900
      ORDER BY l.id`)
    .all({ $u: userId }) as { id: string }[]).map((r) => r.id);
  const mods = db
    .query(`SELECT m.workshop_id AS mod, m.version FROM mods m
      WHERE m.state != 'unknown' AND m.version IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM list_items i WHERE i.workshop_id = m.workshop_id AND i.list_id IN (SELECT value FROM json_each($lists)))
      ORDER BY m.workshop_id LIMIT $n`)
    .all({ $lists: JSON.stringify(lists), $n: clients }) as { mod: string; version: string }[];
  db.close();
  if (lists.length === 0 || mods.length < clients) throw new Error(`write plan: ${lists.length} lists, ${mods.length} free mods for ${clients} clients`);
  return { lists, slots: mods.map((m, i) => ({ list: lists[i % lists.length]!, mod: m.mod, version: m.version })) };
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);
const ms = (x: number) => Math.round(x * 10) / 10;

/** Starts the health prober in its own process (so the writers' event loop cannot delay it). */
function startProber(healthUrl: string, durationMs: number) {
  const p = spawn([process.execPath, join(import.meta.dir, "writes.ts"), "--probe", healthUrl, String(durationMs)], { stdout: "pipe", stderr: "inherit" });
  return (async (): Promise<HealthProbes> => {
    const out = await new Response(p.stdout).text();
    await p.exited;
    return JSON.parse(out) as HealthProbes;
  })();
}

/**
 * Drives the plan's slots with `connections` clients for `seconds` (or `amount` requests in all),
 * API keys rotated like the read rows, while the prober asks `healthUrl` (unless null).
 */
export async function driveWrites(
  base: string,
  plan: WritePlan,
  opts: { connections: number; seconds: number; amount?: number; apiKey: (n: number) => string; healthUrl: string | null },
): Promise<WriteLoad> {
  const latencies: number[] = [];
  let non2xx = 0, errors = 0, issued = 0, keyN = 0, ipN = 0;
  const samples: string[] = [];
  const durationMs = opts.seconds * 1000;
  const prober = opts.healthUrl ? startProber(opts.healthUrl, opts.amount ? 300 : durationMs) : null;
  const t0 = performance.now();
  const more = () => (opts.amount ? issued < opts.amount : performance.now() - t0 < durationMs);
  const one = async (method: string, path: string, body?: unknown) => {
    issued++;
    const n = ipN++ % 20_000;
    const headers: Record<string, string> = {
      "x-api-key": opts.apiKey(keyN++),
      "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const t = performance.now();
    try {
      const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await r.text();
      latencies.push(performance.now() - t);
      if (r.status < 200 || r.status >= 300) {
        non2xx++;
        if (samples.length < 5) samples.push(`${method} ${path} → ${r.status} ${text.slice(0, 100)}`);
      }
    } catch (e) {
      errors++;
      if (samples.length < 5) samples.push(`${method} ${path} → ${String(e).slice(0, 100)}`);
    }
  };
  const client = async (slot: WriteSlot) => {
    const at = `/api/v1/lists/${slot.list}/mods`;
    // A cycle always completes (a half-done one would leave the mod in the list for the next run).
    while (more()) {
      await one("POST", at, { workshop_id: slot.mod });
      await one("PUT", `${at}/${slot.mod}/version`, { version: slot.version });
      await one("PUT", `${at}/${slot.mod}/version`, { version: null });
      await one("DELETE", `${at}/${slot.mod}`);
    }
  };
  const slots = plan.slots.slice(0, opts.connections);
  await Promise.all(slots.map(client));
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    connections: slots.length,
    requests: latencies.length + errors,
    rps: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: ms(pct(latencies, 50)),
    p90: ms(pct(latencies, 90)),
    p99: ms(pct(latencies, 99)),
    max: ms(latencies.at(-1) ?? 0),
    non2xx,
    errors,
    samples,
    health: prober ? await prober : null,
  };
}

/** The prober: one health request every 20 ms (never two at once), each timed from send to answer. */
async function probe(url: string, durationMs: number): Promise<HealthProbes> {
  const waits: number[] = [];
  let failed = 0, n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < durationMs) {
    const t = performance.now();
    try {
      // Rotated addresses: the anonymous limit (300 a minute per address) must not answer for the service.
      const r = await fetch(url, { headers: { "x-forwarded-for": `192.0.2.${n++ % 250}` } });
      await r.arrayBuffer();
      if (r.status !== 200) failed++;
    } catch {
      failed++;
    }
    const w = performance.now() - t;
    waits.push(w);
    await Bun.sleep(Math.max(0, 20 - w));
  }
  waits.sort((a, b) => a - b);
  return { probes: waits.length, max: ms(waits.at(-1) ?? 0), p99: ms(pct(waits, 99)), over_100ms: waits.filter((w) => w > 100).length, failed };
}

if (import.meta.main && process.argv[2] === "--probe") {
  const [url, duration] = process.argv.slice(3);
  console.log(JSON.stringify(await probe(url!, Number(duration))));
}
