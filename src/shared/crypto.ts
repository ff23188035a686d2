// AES-256-GCM encryption of server credentials (docs/deploy.md "Credentials").
//
// Stored form: "<format>.<key_id>.<nonce b64url>.<ciphertext+tag b64url>", e.g.
// "v1.3fa9c0d21b7e55aa.q1w2....xyz...". The key id (first 8 bytes of SHA-256 of the key, hex)
// names the key a record was sealed with, so rotation can tell old records from new ones and a
// wrong key gives a clear message instead of a generic authentication failure. Every record has
// its own random 12-byte nonce; the caller passes additional authenticated data (the server
// id), so a ciphertext copied to another server does not decrypt.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const FORMAT = "v1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

/** A decryption or key problem; the message is safe to show and log (no secret material). */
export class CredentialCryptoError extends Error {
  override name = "CredentialCryptoError";
}

/** Parses a base64 (or base64url) 32-byte key; throws with a readable message otherwise. */
export function parseKey(encoded: string): Buffer {
  const trimmed = encoded.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    throw new CredentialCryptoError("secret key must be 32 bytes encoded as base64");
  }
  const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (key.length !== KEY_BYTES) {
    throw new CredentialCryptoError(`secret key must be 32 bytes encoded as base64 (got ${key.length} bytes)`);
  }
  return key;
}

/** A fresh random key, base64 encoded (for the generated key file and `rotate-key`). */
export function generateKey(): string {
  return randomBytes(KEY_BYTES).toString("base64");
}

/** Public, non-secret identifier of a key (its "version" in stored records). */
export function keyId(key: Uint8Array): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

function assertKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new CredentialCryptoError("secret key must be 32 bytes");
}

/** Encrypts a UTF-8 string; `aad` binds the record to its owner (the server id). */
export function encryptSecret(plaintext: string, key: Uint8Array, aad: string): string {
  assertKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return [FORMAT, keyId(key), nonce.toString("base64url"), body.toString("base64url")].join(".");
}

/** The key id a stored record was sealed with (null when the record is not in our format). */
export function sealedKeyId(sealed: string): string | null {
  const parts = sealed.split(".");
  return parts.length === 4 && parts[0] === FORMAT ? parts[1]! : null;
}

/**
 * Decrypts a record produced by encryptSecret. `keys` may hold several keys (current first,
 * then older ones during a rotation); the record's key id picks the right one.
 */
export function decryptSecret(sealed: string, keys: Uint8Array | Uint8Array[], aad: string): string {
  const parts = sealed.split(".");
  if (parts.length !== 4 || parts[0] !== FORMAT) {
    throw new CredentialCryptoError("stored credentials are not in a recognised format");
  }
  const [, id, nonceText, bodyText] = parts as [string, string, string, string];
  const ring = Array.isArray(keys) ? keys : [keys];
  const key = ring.find((k) => keyId(k) === id);
  if (!key) {
    throw new CredentialCryptoError(
      `stored credentials were encrypted with key ${id}, which is not the configured secret key; ` +
        "restore the old LOADOUT_SECRET_KEY or enter the credentials again",
    );
  }
  const nonce = Buffer.from(nonceText, "base64url");
  const body = Buffer.from(bodyText, "base64url");
  if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) {
    throw new CredentialCryptoError("stored credentials are damaged (tampered with or truncated)");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new CredentialCryptoError(
      "stored credentials failed authentication (tampered with, or belong to another server)",
    );
  }
}

/** Re-encrypts one record under `newKey` (decrypting with any key of `oldKeys`). */
export function reencryptSecret(sealed: string, oldKeys: Uint8Array | Uint8Array[], newKey: Uint8Array, aad: string): string {
  const ring = Array.isArray(oldKeys) ? oldKeys : [oldKeys];
  if (sealedKeyId(sealed) === keyId(newKey)) return sealed;
  return encryptSecret(decryptSecret(sealed, [...ring, newKey], aad), newKey, aad);
}
