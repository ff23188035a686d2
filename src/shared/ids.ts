import { randomBytes } from "node:crypto";

/** New identifiers are UUIDv7 (time-ordered). */
export const newId = (): string => Bun.randomUUIDv7();

/** URL-safe random token (share tokens are UUIDs per the spec; this is for secrets). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString("base64url");

export const sha256Hex = (value: string): string => new Bun.CryptoHasher("sha256").update(value).digest("hex");
