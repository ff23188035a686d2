// One instance per data dir, files private by default (issue 12), with the compiled binary:
// a second `serve` exits with one line and touches nothing; migrate and rotate-key refuse while
// a server runs, backup copies online; after kill -9 the lock is free at once; every file the
// service writes is 0600 in a 0700 directory.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { binaryInFreshFolder, freePort, startBinary } from "./build";

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
});
