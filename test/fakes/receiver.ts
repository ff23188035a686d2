// A local webhook receiver for tests: a real HTTP server on 127.0.0.1 (random port) that
// records every request and answers according to a script of behaviours.
//
//   const rx = await startReceiver();
//   rx.script({ status: 500 }, { status: 429, retryAfter: 7 }); // next two answers
//   rx.setDefault({ status: 204 });                              // everything after
//   ... rx.requests[0].json, rx.requests[0].headers.get("webhook-signature")
//   await rx.waitForRequests(3);
//   rx.stop();

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
  json: unknown;
  receivedAt: number;
}

export type Behaviour =
  | { status: number; retryAfter?: number | string; body?: string; headers?: Record<string, string> }
  /** Never answers (until the server stops): exercises the sender's timeout. */
  | { hang: true }
  /** Answers a 3xx pointing elsewhere: the sender must not follow it. */
  | { redirectTo: string; status?: 301 | 302 | 307 | 308 };

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Queue behaviours for the next requests, in order. */
  script(...behaviours: Behaviour[]): void;
  /** What to do once the script is used up (default 204). */
  setDefault(b: Behaviour): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  reset(): void;
  stop(): void;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const queue: Behaviour[] = [];
  let fallback: Behaviour = { status: 204 };
  const waiters: Array<() => void> = [];
  const hanging: Array<() => void> = [];

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: async (req) => {
      const body = await req.text();
      let json: unknown = undefined;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const url = new URL(req.url);
      requests.push({
        method: req.method,
        path: url.pathname + url.search,
        headers: req.headers,
        body,
        json,
        receivedAt: Date.now(),
      });
      for (const w of waiters.splice(0)) w();
      const b = queue.shift() ?? fallback;
      if ("hang" in b) {
        return new Promise<Response>((resolve) => {
          hanging.push(() => resolve(new Response("late", { status: 200 })));
        });
      }
      if ("redirectTo" in b) {
        return new Response(null, { status: b.status ?? 302, headers: { location: b.redirectTo } });
      }
      const headers = new Headers(b.headers);
      if (b.retryAfter !== undefined) headers.set("retry-after", String(b.retryAfter));
      let payload = b.body ?? null;
      if (b.status === 429 && payload === null && typeof b.retryAfter === "number") {
        headers.set("content-type", "application/json");
        payload = JSON.stringify({ message: "You are being rate limited.", retry_after: b.retryAfter, global: false });
      }
      return new Response(b.status === 204 ? null : payload, { status: b.status, headers });
    },
  });

  const port = server.port as number;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    script: (...bs) => {
      queue.push(...bs);
    },
    setDefault: (b) => {
      fallback = b;
    },
    waitForRequests: async (n, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} requests, wanted ${n}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 50);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return requests.slice(0, n);
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      fallback = { status: 204 };
    },
    stop: () => {
      for (const h of hanging.splice(0)) h();
      server.stop(true);
    },
  };
}
