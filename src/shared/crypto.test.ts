import { describe, expect, test } from "bun:test";
import {
  CredentialCryptoError,
  decryptSecret,
  encryptSecret,
  generateKey,
  keyId,
  parseKey,
  reencryptSecret,
  sealedKeyId,
} from "./crypto";

const key = parseKey(generateKey());
const otherKey = parseKey(generateKey());

describe("credential crypto", () => {
  test("round-trips with the server id as AAD", () => {
    const sealed = encryptSecret('{"password":"secret"}', key, "server-1");
    expect(sealed.startsWith(`v1.${keyId(key)}.`)).toBe(true);
    expect(sealed).not.toContain("secret");
    expect(decryptSecret(sealed, key, "server-1")).toBe('{"password":"secret"}');
  });

  test("the same plaintext encrypts differently each time (random nonce)", () => {
    const a = encryptSecret("secret", key, "s1");
    const b = encryptSecret("secret", key, "s2");
    const c = encryptSecret("secret", key, "s1");
    expect(a).not.toBe(b);
    expect(a).not.toBe(c);
    expect(a.split(".")[2]).not.toBe(c.split(".")[2]);
  });

  test("a tampered ciphertext fails with a clear error", () => {
    const sealed = encryptSecret("secret", key, "s1");
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 0xff;
    const tampered = [parts[0], parts[1], parts[2], body.toString("base64url")].join(".");
    expect(() => decryptSecret(tampered, key, "s1")).toThrow(CredentialCryptoError);
    expect(() => decryptSecret(tampered, key, "s1")).toThrow(/tampered/);
  });

  test("a record moved to another server (other AAD) does not decrypt", () => {
    const sealed = encryptSecret("secret", key, "s1");
    expect(() => decryptSecret(sealed, key, "s2")).toThrow(/another server/);
  });

  test("a wrong key names the key id instead of failing obscurely", () => {
    const sealed = encryptSecret("secret", key, "s1");
    expect(() => decryptSecret(sealed, otherKey, "s1")).toThrow(new RegExp(keyId(key)));
  });

  test("garbage is rejected", () => {
    expect(() => decryptSecret("not-a-record", key, "s1")).toThrow(/recognised format/);
    expect(() => decryptSecret(`v1.${keyId(key)}.AAAA.AAAA`, key, "s1")).toThrow(/damaged/);
  });

  test("rotation re-encrypts under the new key and keyrings decrypt both", () => {
    const sealed = encryptSecret("secret", key, "s1");
    const rotated = reencryptSecret(sealed, key, otherKey, "s1");
    expect(sealedKeyId(rotated)).toBe(keyId(otherKey));
    expect(decryptSecret(rotated, otherKey, "s1")).toBe("secret");
    expect(decryptSecret(sealed, [otherKey, key], "s1")).toBe("secret");
    // already under the new key: unchanged
    expect(reencryptSecret(rotated, key, otherKey, "s1")).toBe(rotated);
  });

  test("parseKey validates length and encoding", () => {
    expect(() => parseKey("short")).toThrow(/32 bytes/);
    expect(() => parseKey("not base64 !!")).toThrow(/base64/);
    expect(parseKey(Buffer.alloc(32, 7).toString("base64url")).length).toBe(32);
  });
});
