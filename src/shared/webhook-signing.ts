// Standard Webhooks signing (https://www.standardwebhooks.com/; docs/events.md "Payloads").
//
// Headers: `webhook-id` (message id, the same on every retry of one message),
// `webhook-timestamp` (unix seconds), `webhook-signature: v1,<base64 HMAC-SHA256>` where the
// HMAC key is the secret's bytes (the base64 part after `whsec_`) and the signed content is
// `${id}.${timestamp}.${raw body}`.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SECRET_PREFIX = "whsec_";
/** 24 random bytes (192 bits), within the scheme's recommended 24..64. */
const SECRET_BYTES = 24;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The key bytes of a `whsec_<base64>` secret. */
export function secretKeyBytes(secret: string): Buffer {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(b64, "base64");
}

export interface SignInput {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The exact bytes that go on the wire. */
  body: string;
  secret: string;
}

/** Returns the `v1,<base64>` signature value. */
export function signWebhook({ id, timestamp, body, secret }: SignInput): string {
  const mac = createHmac("sha256", secretKeyBytes(secret))
    .update(`${id}.${timestamp}.${body}`, "utf8")
    .digest("base64");
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for one message. */
export function webhookSignatureHeaders(input: SignInput): Record<string, string> {
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": signWebhook(input),
  };
}

/**
 * Verification helper for consumers of our own code (e.g. docs examples). Tests use an
 * independent implementation in test/fakes/receiver-verify.ts instead of this one.
 */
export function verifyWebhook(
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook({ id: headers.id, timestamp: ts, body, secret }).slice(3), "base64");
  return headers.signature.split(" ").some((part) => {
    const [version, sig] = part.split(",", 2);
    if (version !== "v1" || !sig) return false;
    const got = Buffer.from(sig, "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
