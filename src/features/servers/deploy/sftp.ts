// SFTP deploy target (ssh2 client, password authentication).
import { createHash, randomBytes } from "node:crypto";
import { Client, type SFTPWrapper, type Stats } from "ssh2";
import { DeployError } from "./errors";
import type { ConfigFileIO, ConfigTarget } from "./target";

export interface SftpCredentials {
  host: string;
  port: number;
  username: string;
  password: string;
}

export interface SftpOptions {
  /** Connect/handshake timeout and per-operation timeout, ms (default 10 s). */
  timeoutMs?: number;
  /** The host key pinned at the first connection ("SHA256:..."); a different key is refused. */
  pinnedHostKey?: string | null;
  /** Called with the host key of the first successful connection when none is pinned yet. */
  onFirstHostKey?: (fingerprint: string) => void;
  /** Largest config file we are willing to read (default 5 MiB). */
  maxFileBytes?: number;
  /** The server's restart_command, run through SSH exec exactly as stored; none: no restart. */
  restartCommand?: string | null;
  /** How long the restart command may run, ms (default 120 s). */
  commandTimeoutMs?: number;
}

/** How much of a restart command's output is kept: its last lines. */
const OUTPUT_LINES = 20;
const OUTPUT_CHARS = 4000;

/** The last `OUTPUT_LINES` lines of `text` (at most OUTPUT_CHARS characters). */
export function lastLines(text: string): string {
  const lines = text.replace(/\s+$/, "").split("\n");
  const tail = lines.slice(-OUTPUT_LINES).join("\n");
  return tail.length > OUTPUT_CHARS ? tail.slice(tail.length - OUTPUT_CHARS) : tail;
}

// SFTP status codes (draft-ietf-secsh-filexfer-02).
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

type SshError = Error & { level?: string; code?: string | number };

/** OpenSSH's fingerprint format: "SHA256:" + unpadded base64 of the key's SHA-256. */
export function hostKeyFingerprint(key: Buffer): string {
  return "SHA256:" + createHash("sha256").update(key).digest("base64").replace(/=+$/, "");
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 200);
}

export class SftpTarget implements ConfigTarget {
  readonly label: string;
  private readonly timeoutMs: number;
  private readonly maxFileBytes: number;
  private readonly pinnedHostKey: string | null;
  private readonly onFirstHostKey?: (fingerprint: string) => void;
  private readonly restartCommand: string | null;
  private readonly commandTimeoutMs: number;

  constructor(
    private readonly creds: SftpCredentials,
    readonly filePath: string,
    options: SftpOptions = {},
  ) {
    this.label = `${creds.username}@${creds.host}:${creds.port}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    this.pinnedHostKey = options.pinnedHostKey ?? null;
    this.onFirstHostKey = options.onFirstHostKey;
    this.restartCommand = options.restartCommand ?? null;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 120_000;
  }

  private hostPort(): string {
    return `${this.creds.host}:${this.creds.port}`;
  }

  /** Maps a connection-level error to a message a user can act on. */
  private connectError(err: SshError): DeployError {
    const code = typeof err.code === "string" ? err.code : "";
    if (err.level === "client-authentication") return new DeployError(`authentication failed for ${this.label}`);
    if (err.level === "client-timeout" || code === "ETIMEDOUT") {
      return new DeployError(`timed out connecting to ${this.hostPort()}`);
    }
    if (code === "ECONNREFUSED") return new DeployError(`connection refused by ${this.hostPort()}`);
    if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME") {
      return new DeployError(`host not found: ${this.creds.host}`);
    }
    if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return new DeployError(`host unreachable: ${this.hostPort()}`);
    if (code === "ECONNRESET" || code === "EPIPE") {
      return new DeployError(`connection to ${this.hostPort()} was closed unexpectedly`);
    }
    if (err.level === "protocol" || err.level === "handshake") {
      return new DeployError(`SSH handshake with ${this.hostPort()} failed: ${firstLine(err.message)}`);
    }
    return new DeployError(`could not connect to ${this.hostPort()}: ${firstLine(err.message)}`);
  }

  /** Maps an SFTP status error on `path` to a message a user can act on. */
  private fileError(err: SshError, action: string, path: string): DeployError {
    if (err instanceof DeployError) return err;
    if (err.code === NO_SUCH_FILE) return new DeployError(`file not found: ${path}`);
    if (err.code === PERMISSION_DENIED) return new DeployError(`permission denied: cannot ${action} ${path}`);
    return new DeployError(`could not ${action} ${path} on ${this.hostPort()}: ${firstLine(err.message)}`);
  }

  /** Runs one SFTP call with the operation timeout. */
  private op<T>(what: string, path: string, run: (cb: (err: SshError | null | undefined, value?: T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new DeployError(`timed out after ${Math.round(this.timeoutMs / 1000)} s trying to ${what} ${path} on ${this.hostPort()}`)),
        this.timeoutMs,
      );
      try {
        run((err, value) => {
          clearTimeout(timer);
          if (err) reject(this.fileError(err, what, path));
          else resolve(value as T);
        });
      } catch (err) {
        clearTimeout(timer);
        reject(this.fileError(err as SshError, what, path));
      }
    });
  }

  private connect(): Promise<{ client: Client; sftp: SFTPWrapper }> {
    return new Promise((resolve, reject) => {
      const client = new Client();
      let settled = false;
      let seenHostKey: string | null = null;
      const fail = (err: DeployError) => {
        if (settled) return;
        settled = true;
        clearTimeout(overall);
        client.end();
        reject(err);
      };
      // readyTimeout covers the handshake; this also covers opening the sftp channel.
      const overall = setTimeout(() => fail(new DeployError(`timed out connecting to ${this.hostPort()}`)), this.timeoutMs + 1000);
      client.on("error", (err: SshError) => {
        if (this.pinnedHostKey && seenHostKey && seenHostKey !== this.pinnedHostKey) {
          return fail(
            new DeployError(
              `the host key of ${this.hostPort()} changed (expected ${this.pinnedHostKey}, got ${seenHostKey}); ` +
                "if the server was reinstalled, store its credentials again to trust the new key",
            ),
          );
        }
        fail(this.connectError(err));
      });
      client.on("close", () => fail(new DeployError(`connection to ${this.hostPort()} was closed unexpectedly`)));
      client.on("ready", () => {
        client.sftp((err, sftp) => {
          if (err) return fail(new DeployError(`SFTP is not available on ${this.hostPort()}: ${firstLine(err.message)}`));
          if (settled) return;
          settled = true;
          clearTimeout(overall);
          if (!this.pinnedHostKey && seenHostKey) this.onFirstHostKey?.(seenHostKey);
          resolve({ client, sftp });
        });
      });
      try {
        client.connect({
          host: this.creds.host,
          port: this.creds.port,
          username: this.creds.username,
          password: this.creds.password,
          readyTimeout: this.timeoutMs,
          tryKeyboard: false,
          // Trust on first use, like ssh's known_hosts: the first successful connection pins
          // the host key, and a different key later is refused before the password is sent.
          hostVerifier: (key: Buffer) => {
            seenHostKey = hostKeyFingerprint(key);
            return !this.pinnedHostKey || seenHostKey === this.pinnedHostKey;
          },
          keepaliveInterval: 0,
        });
      } catch (err) {
        fail(this.connectError(err as SshError));
      }
    });
  }

  /** One connection (host key pinned as for deploys) handed to `fn` as the raw SFTP channel. */
  async withSftp<T>(fn: (sftp: SFTPWrapper) => Promise<T>): Promise<T> {
    const { client, sftp } = await this.connect();
    try {
      return await fn(sftp);
    } finally {
      client.end();
    }
  }

  async session<T>(fn: (io: ConfigFileIO) => Promise<T>): Promise<T> {
    const { client, sftp } = await this.connect();
    try {
      const io = this.io(sftp);
      if (this.restartCommand) io.restart = () => this.exec(client, this.restartCommand!);
      return await fn(io);
    } finally {
      client.end();
    }
  }

  /** Runs `command` through SSH exec on the open connection; resolves with its exit status and last output lines. */
  private exec(client: Client, command: string): Promise<{ exit_status: number | null; output: string }> {
    return new Promise((resolve, reject) => {
      let output = "";
      let settled = false;
      const keep = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        // Only the tail is kept: trim as it grows so a chatty command cannot fill memory.
        if (output.length > 64 * 1024) output = output.slice(-32 * 1024);
      };
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        reject(
          new DeployError(
            `the restart command did not finish within ${Math.round(this.commandTimeoutMs / 1000)} s on ${this.hostPort()}; last output: ${lastLines(output) || "(none)"}`,
          ),
        );
      }, this.commandTimeoutMs);
      client.exec(command, (err, stream) => {
        if (err) {
          settled = true;
          clearTimeout(timer);
          return reject(new DeployError(`could not run the restart command on ${this.hostPort()}: ${firstLine(err.message)}`));
        }
        stream.on("data", keep);
        stream.stderr.on("data", keep);
        stream.on("close", (code: number | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ exit_status: typeof code === "number" ? code : null, output: lastLines(output) });
        });
      });
    });
  }

  private io(sftp: SFTPWrapper): ConfigFileIO {
    const path = this.filePath;
    const stat = (p: string) => this.op<Stats>("read", p, (cb) => sftp.stat(p, cb));
    const writeFile = (p: string, text: string, mode: number) =>
      this.op<void>("write", p, (cb) => sftp.writeFile(p, text, { mode, encoding: "utf8" }, (err) => cb(err)));
    const checkWritable = async () => {
      // Open for writing without truncating: fails on a read-only file, changes nothing.
      const handle = await this.op<Buffer>("write", path, (cb) => sftp.open(path, "r+", cb));
      await this.op<void>("write", path, (cb) => sftp.close(handle, (err) => cb(err)));
    };
    return {
      read: async () => {
        const st = await stat(path);
        if (!st.isFile()) throw new DeployError(`not a regular file: ${path}`);
        if (st.size > this.maxFileBytes) throw new DeployError(`file too large to be a server config: ${path} (${st.size} bytes)`);
        const buf = await this.op<Buffer>("read", path, (cb) => sftp.readFile(path, cb));
        return buf.toString("utf8");
      },
      checkWritable,
      write: async (next, previous) => {
        const st = await stat(path);
        const mode = st.mode & 0o7777;
        await checkWritable();
        // Keep the previous file as <file>.bak.
        await writeFile(`${path}.bak`, previous, mode);
        const slash = path.lastIndexOf("/");
        const dir = slash >= 0 ? path.slice(0, slash + 1) : "";
        const base = path.slice(slash + 1);
        const tmp = `${dir}.${base}.loadout-${randomBytes(4).toString("hex")}.tmp`;
        await writeFile(tmp, next, mode);
        try {
          const ext = (sftp as unknown as { _extensions?: Record<string, string> })._extensions ?? {};
          if (ext["posix-rename@openssh.com"] === "1") {
            await this.op<void>("replace", path, (cb) => sftp.ext_openssh_rename(tmp, path, (err) => cb(err)));
          } else {
            // Plain SFTP rename does not overwrite: remove the old file first (the .bak holds it).
            await this.op<void>("replace", path, (cb) => sftp.unlink(path, (err) => cb(err)));
            await this.op<void>("replace", path, (cb) => sftp.rename(tmp, path, (err) => cb(err)));
          }
        } catch (err) {
          await new Promise<void>((resolve) => sftp.unlink(tmp, () => resolve()));
          throw err;
        }
      },
    };
  }
}
