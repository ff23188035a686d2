// SFTP deployer against a real OpenSSH sshd on 127.0.0.1 (test/peers/sshd.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { outsideMods } from "../../../../test/config-text";
import { startSshd, type SshdPeer } from "../../../../test/peers/sshd";
import { SftpTarget } from "./sftp";
import { deployMods, testTarget } from "./target";

let sshd: SshdPeer;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

const mods = [
  { modId: "5965550F24A0C152", name: "Where Am I", version: "1.2.0" },
  { modId: "591AF5BDD9EEEE4C", name: "RHS" },
];

function target(path: string, password = sshd.password, opts = {}) {
  return new SftpTarget({ host: sshd.host, port: sshd.port, username: sshd.username, password }, path, opts);
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).not.toContain("    at ");
    expect(message).not.toContain(sshd.password);
    return message;
  }
  throw new Error("expected a failure");
}

describe("SFTP deployer (real sshd)", () => {
  test("deploy replaces game.mods, keeps other keys, keeps a .bak and the file mode", async () => {
    const path = sshd.writeFile("server.json", SAMPLE_SERVER_JSON, 0o640);
    const outcome = await deployMods(target(path), mods);
    expect(outcome.item_count).toBe(2);
    expect(outcome.snapshot).toEqual(mods);

    const written = JSON.parse(sshd.readFile("server.json"));
    const original = JSON.parse(SAMPLE_SERVER_JSON);
    expect(written.game.mods).toEqual(mods);
    expect(written.rcon).toEqual(original.rcon);
    expect(written.game.gameProperties).toEqual(original.game.gameProperties);
    // Edited in place: every byte outside game.mods is the file's own.
    expect(outsideMods(sshd.readFile("server.json"))).toBe(outsideMods(SAMPLE_SERVER_JSON));
    expect(sshd.readFile("server.json.bak")).toBe(SAMPLE_SERVER_JSON);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    // no temporary file left behind
    expect(readdirSync(sshd.workDir).filter((f) => f.includes("loadout-"))).toEqual([]);
  });

  test("deploying twice is idempotent: the second finds the config as it would write it and writes nothing", async () => {
    const path = sshd.writeFile("twice.json", SAMPLE_SERVER_JSON);
    await deployMods(target(path), mods);
    const first = sshd.readFile("twice.json");
    const mtime = statSync(path).mtimeMs;
    await deployMods(target(path), mods);
    expect(sshd.readFile("twice.json")).toBe(first);
    // Not written again: the backup is still the file as it was before the first deploy.
    expect(sshd.readFile("twice.json.bak")).toBe(SAMPLE_SERVER_JSON);
    expect(statSync(path).mtimeMs).toBe(mtime);
  });

  test("connection test reads and validates without changing anything", async () => {
    const path = sshd.writeFile("probe.json", SAMPLE_SERVER_JSON);
    await testTarget(target(path));
    expect(sshd.readFile("probe.json")).toBe(SAMPLE_SERVER_JSON);
    expect(sshd.exists("probe.json.bak")).toBe(false);
  });

  test("wrong password", async () => {
    const path = sshd.writeFile("auth.json", SAMPLE_SERVER_JSON);
    const message = await failure(deployMods(target(path, "wrong-password"), mods));
    expect(message).toBe(`authentication failed for sftptest@127.0.0.1:${sshd.port}`);
  });

  test("missing file", async () => {
    const path = `${sshd.workDir}/missing.json`;
    expect(await failure(deployMods(target(path), mods))).toBe(`file not found: ${path}`);
    expect(await failure(testTarget(target(path)))).toBe(`file not found: ${path}`);
  });

  test("read-only file is not replaced", async () => {
    const path = sshd.writeFile("readonly.json", SAMPLE_SERVER_JSON, 0o444);
    expect(await failure(deployMods(target(path), mods))).toBe(`permission denied: cannot write ${path}`);
    expect(sshd.readFile("readonly.json")).toBe(SAMPLE_SERVER_JSON);
    expect(await failure(testTarget(target(path)))).toBe(`permission denied: cannot write ${path}`);
  });

  test("invalid JSON names the line", async () => {
    const path = sshd.writeFile("server-broken.json", '{\n  "game": {\n    "name": "x",,\n  }\n}\n');
    expect(await failure(deployMods(target(path), mods))).toBe("server-broken.json is not valid JSON at line 3, column 17: expected a property name after ,, found a second ,");
    expect(sshd.readFile("server-broken.json")).toBe('{\n  "game": {\n    "name": "x",,\n  }\n}\n');
  });

  test("connection refused", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const t = new SftpTarget({ host: "127.0.0.1", port, username: "sftptest", password: "x" }, "/x/server.json");
    expect(await failure(deployMods(t, mods))).toBe(`connection refused by 127.0.0.1:${port}`);
  });

  test("a peer that never answers times out", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    const port = await new Promise<number>((resolve) => silent.listen(0, "127.0.0.1", () => resolve((silent.address() as { port: number }).port)));
    try {
      const t = new SftpTarget({ host: "127.0.0.1", port, username: "sftptest", password: "x" }, "/x/server.json", { timeoutMs: 300 });
      expect(await failure(deployMods(t, mods))).toBe(`timed out connecting to 127.0.0.1:${port}`);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});
