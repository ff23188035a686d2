// One instance per data dir, files private by default (docs/operations.md "Files"), with the
// compiled binary: a second `serve` exits with one line and touches nothing; migrate and rotate-key
// refuse while a server runs, backup copies online; after kill -9 the lock is free at once; every
// file the service writes is 0600 in a 0700 directory.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { binaryInFreshFolder, freePort, startBinary, until } from "./build";

let dir: string;
let bin: string;
let data: string;

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

async function run(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn([bin, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", LOADOUT_DATA_DIR: data, ...env }, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(), 20_000);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { out, err, code };
}

beforeAll(async () => {
  ({ dir, bin } = await binaryInFreshFolder());
  data = join(dir, "data");
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the data directory", () => {
  test("one server per data dir; migrate and rotate-key refuse, backup copies online; kill -9 leaves no stale lock; files private", async () => {
    const first = await startBinary(bin, dir, { LOADOUT_DATA_DIR: data });
    try {
      // user create works beside a running server (SQLite serialises the writes).
      const admin = await run(["user", "create", "--admin", "--email", "root@example.com", "--password", "root password"]);
      expect(admin.code).toBe(0);

      const second = await run(["serve"], { LOADOUT_PORT: String(await freePort()), LOADOUT_HOST: "127.0.0.1", LOADOUT_SCHEDULES: "off" });
      expect(second.code).not.toBe(0);
      const lines = second.err.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(`serve: another loadout process (pid ${first.proc.pid}) is serving the data directory ${data}; stop it first or use another LOADOUT_DATA_DIR`);
      expect((await fetch(`${first.base}/api/v1/health`)).status).toBe(200);

      const migrate = await run(["migrate"]);
      expect(migrate.code).toBe(1);
      expect(migrate.err).toContain("the server applies migrations itself when it starts");
      const rotate = await run(["rotate-key", "--new-key", Buffer.alloc(32, 7).toString("base64")]);
      expect(rotate.code).toBe(1);
      expect(rotate.err).toContain("stop it first, rotate, then start it again");
      const backup = await run(["backup"]);
      expect(backup.code).toBe(0);
      expect(backup.err).toContain("copying online");
      const copy = backup.out.trim();
      expect(mode(copy)).toBe("600");
      expect(mode(join(data, "backups"))).toBe("700");

      // Every file of the data dir is private, the directory too.
      expect(mode(data)).toBe("700");
      for (const f of readdirSync(data)) {
        if (f === "backups") continue;
        expect({ f, mode: mode(join(data, f)) }).toEqual({ f, mode: "600" });
      }
      expect(readdirSync(data)).toEqual(expect.arrayContaining(["loadout.db", "loadout.db-wal", "loadout.db-shm", "jwt-secret", "secret-key", "loadout.lock"]));
    } finally {
      first.proc.kill("SIGKILL");
      await first.proc.exited;
    }
    // The kernel dropped the dead process's lock: the next start needs no clean-up.
    const again = await startBinary(bin, dir, { LOADOUT_DATA_DIR: data });
    try {
      expect((await fetch(`${again.base}/api/v1/health`)).status).toBe(200);
    } finally {
      again.proc.kill("SIGTERM");
      await again.proc.exited;
    }
    // With no server running, migrate works.
    const migrate = await run(["migrate"]);
    expect(migrate.code).toBe(0);
  }, 60_000);

  test("scheduled backups in the binary keep LOADOUT_BACKUP_KEEP; restore refuses while it serves, then puts the newest back", async () => {
    const data2 = join(dir, "data-scheduled");
    const env = {
      LOADOUT_DATA_DIR: data2,
      LOADOUT_SCHEDULES: "on",
      LOADOUT_BACKUP_CRON: "* * * * * *", // every second (croner's seconds field)
      LOADOUT_BACKUP_KEEP: "2",
      // the other schedules' first runs go nowhere (nothing listens on port 9)
      LOADOUT_WORKSHOP_URL: "http://127.0.0.1:9",
      LOADOUT_BATTLEMETRICS_URL: "http://127.0.0.1:9",
    };
    const server = await startBinary(bin, dir, env);
    const backups = join(data2, "backups");
    const scheduled = () => readdirSync(backups).filter((f) => f.startsWith("scheduled-") && f.endsWith(".db")).sort();
    try {
      const done = () => {
        const db = new Database(join(data2, "loadout.db"), { readonly: true });
        try {
          return (db.query("SELECT count(*) AS n FROM jobs WHERE type = 'backup' AND status = 'succeeded'").get() as { n: number }).n;
        } finally {
          db.close();
        }
      };
      await until("four scheduled backups", async () => done() >= 4, 30_000);
      expect(scheduled()).toHaveLength(2);
      for (const f of scheduled()) {
        expect(mode(join(backups, f))).toBe("600");
        expect(mode(join(backups, `${f}.secret-key`))).toBe("600");
      }
      const refused = await run(["restore", join(backups, scheduled()[0]!)], { LOADOUT_DATA_DIR: data2 });
      expect(refused.code).toBe(1);
      expect(refused.err.trim()).toBe(`restore: another loadout process (pid ${server.proc.pid}) is serving the data directory ${data2}; stop it first, restore, then start it again`);
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
    const newest = join(backups, scheduled().at(-1)!);
    const restored = await run(["restore", newest], { LOADOUT_DATA_DIR: data2 });
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.out)).toMatchObject({ restored: newest, sealed_secrets: { key_ok: true }, next_step: "start the server" });
    expect(readdirSync(data2).some((f) => f.startsWith("loadout.db.before-restore-"))).toBe(true);
    const again = await startBinary(bin, dir, { LOADOUT_DATA_DIR: data2 });
    try {
      expect((await fetch(`${again.base}/api/v1/health`)).status).toBe(200);
    } finally {
      again.proc.kill("SIGTERM");
      await again.proc.exited;
    }
  }, 90_000);
});
