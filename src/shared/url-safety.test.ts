import { describe, expect, test, afterAll } from "bun:test";
import { AppError } from "./errors";
import { OffOriginError, assertHostAllowed, assertUrlAllowed, isForbiddenAddress, parseIpv6, safeFetch, sameOriginLink, sourceFetch } from "./url-safety";
import { startReceiver } from "../../test/fakes/receiver";

const strict = { allowPrivate: false };
const lax = { allowPrivate: true };

async function refused(p: Promise<unknown>): Promise<void> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(400);
  expect((err as AppError).message).toBe("url not allowed");
}

describe("isForbiddenAddress", () => {
  test.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.254",
    "169.254.169.254",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::1",
    "[::1]",
  ])("refuses %s", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  test.each(["1.1.1.1", "8.8.8.8", "172.32.0.1", "172.15.255.255", "100.128.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "2001:db8::1"])(
    "allows %s",
    (ip) => {
      expect(isForbiddenAddress(ip)).toBe(false);
    },
  );

  test("garbage is refused, not guessed", () => {
    expect(isForbiddenAddress("not-an-ip")).toBe(true);
    expect(isForbiddenAddress("1.2.3")).toBe(true);
  });

  test("parseIpv6 expands forms", () => {
    expect(parseIpv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6("2001:db8::")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6("1::2::3")).toBeNull();
    expect(parseIpv6("1:2:3")).toBeNull();
  });
});

describe("assertUrlAllowed", () => {
  const publicResolver = async () => ["93.184.215.14"];
  const privateResolver = async () => ["93.184.215.14", "10.0.0.7"];
  const failing = async () => {
    throw new Error("ENOTFOUND");
  };

  test("only http and https", async () => {
    await refused(assertUrlAllowed("ftp://example.com/x", strict, publicResolver));
    await refused(assertUrlAllowed("file:///etc/passwd", strict, publicResolver));
    await refused(assertUrlAllowed("javascript:alert(1)", lax));
    await refused(assertUrlAllowed("not a url", lax));
    await assertUrlAllowed("https://example.com/hook", strict, publicResolver);
    await assertUrlAllowed("http://example.com/hook", strict, publicResolver);
  });

  test("loopback literals in every spelling are refused by default", async () => {
    for (const u of [
      "http://127.0.0.1:8080/hook",
      "http://127.1/",
      "http://2130706433/",
      "http://0x7f.0.0.1/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
      "http://169.254.169.254/latest/meta-data",
    ]) {
      await refused(assertUrlAllowed(u, strict));
    }
  });

  test("names are judged by what they resolve to", async () => {
    await refused(assertUrlAllowed("https://internal.example/", strict, privateResolver));
    await refused(assertUrlAllowed("https://nowhere.invalid/", strict, failing));
    await assertUrlAllowed("https://example.com/", strict, publicResolver);
  });

  test("localhost resolves through the system resolver and is refused", async () => {
    await refused(assertUrlAllowed("http://localhost:3000/", strict));
  });

  test("allowPrivate permits private targets but keeps the scheme rule", async () => {
    await assertUrlAllowed("http://127.0.0.1:9/x", lax);
    await assertUrlAllowed("http://localhost/x", lax);
    await refused(assertUrlAllowed("gopher://127.0.0.1/", lax));
  });

  test("assertHostAllowed checks bare hosts (SFTP)", async () => {
    await refused(assertHostAllowed("127.0.0.1", strict));
    await refused(assertHostAllowed("::1", strict));
    await refused(assertHostAllowed("", lax));
    expect(await assertHostAllowed("sftp.example.com", strict, publicResolver)).toEqual(["93.184.215.14"]);
    expect(await assertHostAllowed("127.0.0.1", lax)).toEqual([]);
  });
});

describe("safeFetch", () => {
  const rxPromise = startReceiver();
  afterAll(async () => (await rxPromise).stop());

  test("refuses loopback before connecting unless allowed", async () => {
    const rx = await rxPromise;
    await refused(safeFetch(rx.url, { method: "POST", body: "x" }, strict));
    expect(rx.requests.length).toBe(0);
    const res = await safeFetch(rx.url, { method: "POST", body: "x" }, lax);
    expect(res.status).toBe(204);
    expect(rx.requests.length).toBe(1);
  });

  test("does not follow redirects", async () => {
    const rx = await rxPromise;
    rx.reset();
    rx.script({ redirectTo: `http://127.0.0.1:${rx.port}/elsewhere`, status: 307 });
    const res = await safeFetch(rx.url, { method: "POST", body: "x" }, lax);
    expect(res.status).toBe(307);
    expect(rx.requests.map((r) => r.path)).toEqual(["/hook"]);
  });

  test("times out on a hanging receiver", async () => {
    const rx = await rxPromise;
    rx.reset();
    rx.script({ hang: true });
    let err: unknown;
    try {
      await safeFetch(rx.url, { method: "POST", body: "x" }, { ...lax, timeoutMs: 200 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe("TimeoutError");
  });
});

describe("configured sources: links and redirects only on their origin", () => {
  test("sameOriginLink resolves relative links and compares scheme, host and port", () => {
    const origin = "http://127.0.0.1:8000";
    expect(sameOriginLink("/servers?page[key]=2", "http://127.0.0.1:8000/servers", origin, "links.next")).toBe("http://127.0.0.1:8000/servers?page[key]=2");
    expect(sameOriginLink("http://127.0.0.1:8000/x", origin, origin, "links.next")).toBe("http://127.0.0.1:8000/x");
    for (const off of ["http://127.0.0.1:8001/x", "https://127.0.0.1:8000/x", "http://localhost:8000/x", "http://127.0.0.1:8000@evil.example/x", "//evil.example/x", "file:///etc/passwd"]) {
      expect(() => sameOriginLink(off, "http://127.0.0.1:8000/servers", origin, "links.next")).toThrow(OffOriginError);
    }
  });

  test("sourceFetch follows redirects on the origin (GET), refuses others before sending, hands other methods their 3xx", async () => {
    const hits: string[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const u = new URL(req.url);
        hits.push(`${req.method} ${u.pathname} ${req.headers.get("authorization")}`);
        if (u.pathname === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
        if (u.pathname === "/here") return new Response(null, { status: 301, headers: { location: "/there" } });
        if (u.pathname === "/away") return new Response(null, { status: 307, headers: { location: "http://localhost:1/stolen" } });
        return new Response(`at ${u.pathname}`);
      },
    });
    const origin = `http://127.0.0.1:${server.port}`;
    const opts = { origin };
    const auth = { headers: { authorization: "Bearer t" } };
    try {
      const ok = await sourceFetch(`${origin}/here`, auth, opts);
      expect(await ok.text()).toBe("at /there");
      expect(hits).toEqual(["GET /here Bearer t", "GET /there Bearer t"]);
      const err = await sourceFetch(`${origin}/away`, auth, opts).catch((e) => e);
      expect(err).toBeInstanceOf(OffOriginError);
      expect(err.message).toStartWith("a redirect (HTTP 307) leads to http://localhost:1, off the configured source");
      expect(await sourceFetch(`${origin}/loop`, {}, opts).catch((e) => e.message)).toBe(`more than 5 redirects from ${origin}`);
      const post = await sourceFetch(`${origin}/here`, { method: "POST", body: "x" }, opts);
      expect(post.status).toBe(301);
      expect(await sourceFetch("http://localhost:1/", {}, opts).catch((e) => e)).toBeInstanceOf(OffOriginError);
    } finally {
      server.stop(true);
    }
  });
});
