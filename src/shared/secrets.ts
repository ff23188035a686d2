// Generated secrets live in the data directory, created once with mode 0600.
import { existsSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { ensurePrivateDir } from "./data-dir";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { Config } from "../config";

export interface Secrets {
  jwtSecret: string;
  /** AES-256-GCM key for server credentials (32 bytes). */
  credentialKey: Buffer;
}

function readOrCreate(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const value = make();
  writeFileSync(path, value + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return value;
}

export function loadSecrets(config: Config): Secrets {
  ensurePrivateDir(config.LOADOUT_DATA_DIR);
  const jwtSecret =
    config.LOADOUT_JWT_SECRET ??
    readOrCreate(join(config.LOADOUT_DATA_DIR, "jwt-secret"), () => randomBytes(48).toString("base64url"));
  const keyB64 =
    config.LOADOUT_SECRET_KEY ??
    readOrCreate(join(config.LOADOUT_DATA_DIR, "secret-key"), () => randomBytes(32).toString("base64"));
  return { jwtSecret, credentialKey: Buffer.from(keyB64, "base64") };
}
