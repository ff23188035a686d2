// An INDEPENDENT Standard Webhooks verifier, written from the specification text
// (https://www.standardwebhooks.com/) rather than from our signer:
// it uses WebCrypto (crypto.subtle) and its own base64 handling, so a bug in
// src/shared/webhook-signing.ts cannot hide itself in the tests.
//
//   signed content  = msg_id + "." + timestamp + "." + payload
//   key             = base64-decode(secret without the "whsec_" prefix)
//   signature       = base64(HMAC-SHA256(key, signed content))
//   header          = space-delimited list of "v1,<signature>"
//   timestamp       = integer seconds since the epoch, rejected when too far from now

export interface VerifyResult {
  ok: boolean;
  reason?: string;
}

function decodeBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function encodeBase64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export async function verifyStandardWebhook(
  headers: Headers | Record<string, string>,
  rawBody: string,
  secret: string,
  opts: { nowSeconds?: number; toleranceSeconds?: number } = {},
): Promise<VerifyResult> {
  const get = (name: string): string | null =>
    headers instanceof Headers ? headers.get(name) : (headers[name] ?? null);
  const msgId = get("webhook-id");
  const timestamp = get("webhook-timestamp");
  const signatureHeader = get("webhook-signature");
  if (!msgId || !timestamp || !signatureHeader) return { ok: false, reason: "missing headers" };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: "bad timestamp" };
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = opts.toleranceSeconds ?? 5 * 60;
  if (Math.abs(now - Number(timestamp)) > tolerance) return { ok: false, reason: "timestamp out of tolerance" };
  if (!secret.startsWith("whsec_")) return { ok: false, reason: "secret lacks whsec_ prefix" };

  const key = await crypto.subtle.importKey(
    "raw",
    decodeBase64(secret.substring("whsec_".length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const content = new TextEncoder().encode(`${msgId}.${timestamp}.${rawBody}`);
  const expected = encodeBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)));

  for (const candidate of signatureHeader.split(" ")) {
    const comma = candidate.indexOf(",");
    if (comma < 0) continue;
    if (candidate.substring(0, comma) !== "v1") continue;
    if (constantTimeEqual(candidate.substring(comma + 1), expected)) return { ok: true };
  }
  return { ok: false, reason: "no matching signature" };
}
