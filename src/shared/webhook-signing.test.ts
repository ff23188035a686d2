import { describe, expect, test } from "bun:test";
import { generateWebhookSecret, signWebhook, verifyWebhook, webhookSignatureHeaders } from "./webhook-signing";
import { verifyStandardWebhook } from "../../test/fakes/receiver-verify";

describe("Standard Webhooks signing", () => {
  test("secret is whsec_ + base64 of 24 bytes, different every time", () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice(6), "base64").length).toBe(24);
    expect(a).not.toBe(b);
  });

  test("matches the published Standard Webhooks test vector", () => {
    // From the Standard Webhooks reference libraries' test suite.
    const sig = signWebhook({
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    });
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  test("the independent verifier accepts our signature and rejects tampering", async () => {
    const secret = generateWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ id: "e1", type: "mod_added", data: { name: "Ünïcødé ✓" } });
    const headers = webhookSignatureHeaders({ id: "e1", timestamp: now, body, secret });
    expect(await verifyStandardWebhook(headers, body, secret)).toEqual({ ok: true });
    expect((await verifyStandardWebhook(headers, body + " ", secret)).ok).toBe(false);
    expect((await verifyStandardWebhook({ ...headers, "webhook-id": "e2" }, body, secret)).ok).toBe(false);
    expect((await verifyStandardWebhook(headers, body, generateWebhookSecret())).ok).toBe(false);
    const old = webhookSignatureHeaders({ id: "e1", timestamp: now - 3600, body, secret });
    expect((await verifyStandardWebhook(old, body, secret)).reason).toBe("timestamp out of tolerance");
  });

  test("verifyWebhook round-trips and accepts one of several signatures", () => {
    const secret = generateWebhookSecret();
    const body = "{}";
    const sig = signWebhook({ id: "m", timestamp: 100, body, secret });
    expect(verifyWebhook({ id: "m", timestamp: "100", signature: `v1,bogus ${sig}` }, body, secret, 100)).toBe(true);
    expect(verifyWebhook({ id: "m", timestamp: "100", signature: sig }, body, secret, 10_000)).toBe(false);
    expect(verifyWebhook({ id: "m", timestamp: "100", signature: "v2," + sig.slice(3) }, body, secret, 100)).toBe(false);
  });
});
