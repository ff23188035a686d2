// A real Debian OpenSSH sshd on 127.0.0.1 for the SFTP deploy tests.
//
// Needs root and the `openssh-server` package (`.ci/run` installs it). Creates the system user
// `sftptest` (password `secret`) when missing. If sshd cannot start, startSshd() throws: the
// tests that need it fail, they never skip.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SFTP_USER = "sftptest";
export const SFTP_PASSWORD = "secret";
const SSHD = "/usr/sbin/sshd";

export interface SshdPeer {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The host key's fingerprint as OpenSSH prints it ("SHA256:..."). */
  hostKeyFingerprint: string;
  /** A fresh directory owned by sftptest, for this peer's test files. */
  workDir: string;
  /** Writes a file owned by sftptest (mode 0644 unless given). */
  writeFile(name: string, content: string, mode?: number): string;
  readFile(name: string): string;
  exists(name: string): boolean;
  stop(): Promise<void>;
}

function run(cmd: string[], input?: string): { code: number; out: string } {
  const p = Bun.spawnSync(cmd, { stdin: input === undefined ? "ignore" : new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function userIds(name: string): { uid: number; gid: number } | null {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const f = line.split(":");
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

function ensureUser(): { uid: number; gid: number } {
  let ids = userIds(SFTP_USER);
  if (!ids) {
    const r = run(["useradd", "-m", "-s", "/bin/sh", SFTP_USER]);
    if (r.code !== 0 && !userIds(SFTP_USER)) throw new Error(`sshd peer: useradd ${SFTP_USER} failed: ${r.out}`);
    ids = userIds(SFTP_USER);
  }
  const pw = run(["chpasswd"], `${SFTP_USER}:${SFTP_PASSWORD}\n`);
  if (pw.code !== 0) throw new Error(`sshd peer: chpasswd failed: ${pw.out}`);
  if (!ids) throw new Error(`sshd peer: user ${SFTP_USER} missing after useradd`);
  return ids;
}

async function waitForPort(port: number, proc: ReturnType<typeof Bun.spawn>, logPath: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (proc.exitCode !== null) break;
    const ok = await new Promise<boolean>((resolve) => {
      Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          open: (s) => {
            s.end();
            resolve(true);
          },
          data: () => {},
          error: () => resolve(false),
          connectError: () => resolve(false),
        },
      }).catch(() => resolve(false));
    });
    if (ok) return;
    await Bun.sleep(50);
  }
  const log = existsSync(logPath) ? readFileSync(logPath, "utf8") : "";
  throw new Error(`sshd peer did not start listening on 127.0.0.1:${port}: ${log}`);
}

export async function startSshd(): Promise<SshdPeer> {
  if (!existsSync(SSHD)) {
    throw new Error(`sshd peer: ${SSHD} not found; install it with: apt-get install -y --no-install-recommends openssh-server`);
  }
  if (process.getuid && process.getuid() !== 0) throw new Error("sshd peer: must run as root to start sshd");
  const { uid, gid } = ensureUser();
  mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });

  const dir = mkdtempSync(join(tmpdir(), "loadout-sshd-"));
  const hostKey = join(dir, "host_ed25519");
  const kg = run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey]);
  if (kg.code !== 0) throw new Error(`sshd peer: ssh-keygen failed: ${kg.out}`);
  const fp = run(["ssh-keygen", "-l", "-E", "sha256", "-f", `${hostKey}.pub`]);
  const hostKeyFingerprint = /SHA256:\S+/.exec(fp.out)?.[0];
  if (!hostKeyFingerprint) throw new Error(`sshd peer: could not read the host key fingerprint: ${fp.out}`);
  const port = await freePort();
  const config = join(dir, "sshd_config");
  writeFileSync(
    config,
    [
      "ListenAddress 127.0.0.1",
      `Port ${port}`,
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "UsePAM no",
      "PasswordAuthentication yes",
      "KbdInteractiveAuthentication no",
      "PubkeyAuthentication yes",
      "PermitRootLogin no",
      `AllowUsers ${SFTP_USER}`,
      "MaxAuthTries 3",
      "Subsystem sftp internal-sftp",
      "",
    ].join("\n"),
  );
  const check = run([SSHD, "-t", "-f", config]);
  if (check.code !== 0) throw new Error(`sshd peer: config check failed: ${check.out}`);
  const logPath = join(dir, "sshd.log");
  // -D: stay in the foreground so we own the process; -E: log to a file.
  const proc = Bun.spawn([SSHD, "-D", "-f", config, "-E", logPath], { stdout: "ignore", stderr: "ignore" });
  await waitForPort(port, proc, logPath);

  const home = `/home/${SFTP_USER}`;
  mkdirSync(home, { recursive: true });
  const workDir = mkdtempSync(join(home, "loadout-test-"));
  chownSync(workDir, uid, gid);
  chmodSync(workDir, 0o755);

  return {
    host: "127.0.0.1",
    port,
    hostKeyFingerprint,
    username: SFTP_USER,
    password: SFTP_PASSWORD,
    workDir,
    writeFile(name, content, mode = 0o644) {
      const p = join(workDir, name);
      writeFileSync(p, content);
      chownSync(p, uid, gid);
      chmodSync(p, mode);
      return p;
    },
    readFile: (name) => readFileSync(join(workDir, name), "utf8"),
    exists: (name) => existsSync(join(workDir, name)),
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(workDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
