// A local fake of the panel client API (Pterodactyl / Pelican; docs/deploy.md).
// It checks the Authorization and Accept headers and the raw text/plain body of files/write,
// and can be told to answer 401, 404, 429, 500, redirect elsewhere, or never answer (hang). Power
// signals (POST /power {"signal"}) restart the fake server: `resources` then reports it `starting`
// for `bootMs`, then `running` with an uptime counted from the restart, as Pterodactyl and Pelican
// do (attributes.current_state, attributes.resources.uptime in ms; shapes in docs/deploy.md).
export const PANEL_ACCEPT = "Application/vnd.pterodactyl.v1+json";

export interface PanelRequest {
  method: string;
  path: string;
  file: string | null;
  authorization: string | null;
  accept: string | null;
  contentType: string | null;
  body: string;
}

export type PanelFault =
  | { kind: "status"; status: 401 | 404 | 429 | 500 | number; retryAfter?: string; times?: number }
  | { kind: "hang"; times?: number }
  /** Answers `status` (default 302) with `Location: <to><the request's path and query>`. */
  | { kind: "redirect"; to: string; status?: number; times?: number };

export interface FakePanel {
  url: string;
  apiKey: string;
  serverUuid: string;
  /** Files of the one server, by path. */
  files: Map<string, string>;
  requests: PanelRequest[];
  /** Answers the next requests with a fault (all following ones unless `times` is set). */
  fault(f: PanelFault | null): void;
  /** Power signals received, in order. */
  signals: string[];
  /** The fake server's power state: what GET /resources reports. */
  power: { state: "offline" | "starting" | "running" | "stopping"; startedAt: number; bootMs: number };
  /** Called on each accepted power signal (tests flip their A2S responder here). */
  onPower?: (signal: string) => void;
  /** Faults for power requests only (e.g. a 429 on /power while files work). */
  powerFault(f: PanelFault | null): void;
  stop(): Promise<void>;
}

function ptError(status: number, code: string, detail: string, headers: Record<string, string> = {}): Response {
  return Response.json({ errors: [{ code, status: String(status), detail }] }, { status, headers });
}

export function startFakePanel(opts: { apiKey?: string; serverUuid?: string; files?: Record<string, string> } = {}): FakePanel {
  const apiKey = opts.apiKey ?? "ptlc_fakekey0123456789";
  const serverUuid = opts.serverUuid ?? "1a7ce997-259b-452e-8b4e-cecc464142ca";
  const files = new Map(Object.entries(opts.files ?? {}));
  const requests: PanelRequest[] = [];
  let fault: PanelFault | null = null;
  let remaining = Infinity;
  let powerFault: PanelFault | null = null;
  let powerRemaining = Infinity;
  const signals: string[] = [];
  const power: FakePanel["power"] = { state: "running", startedAt: Date.now() - 3_600_000, bootMs: 0 };
  const stateNow = () => {
    if (power.state === "starting" && Date.now() - power.startedAt >= power.bootMs) power.state = "running";
    return power.state;
  };
  const hanging: Array<() => void> = [];

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch: async (req) => {
      const url = new URL(req.url);
      // The raw file as sent (a BOM kept), as the panel writes what it is given.
      const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await req.arrayBuffer());
      const record: PanelRequest = {
        method: req.method,
        path: url.pathname,
        file: url.searchParams.get("file"),
        authorization: req.headers.get("authorization"),
        accept: req.headers.get("accept"),
        contentType: req.headers.get("content-type"),
        body,
      };
      requests.push(record);

      if (fault && remaining > 0) {
        const f = fault;
        remaining--;
        if (remaining <= 0) fault = null;
        if (f.kind === "hang") {
          return new Promise<Response>((resolve) => hanging.push(() => resolve(new Response("", { status: 503 }))));
        }
        if (f.kind === "redirect") return new Response(null, { status: f.status ?? 302, headers: { location: `${f.to}${url.pathname}${url.search}` } });
        const headers: Record<string, string> = f.retryAfter ? { "Retry-After": f.retryAfter } : {};
        return ptError(f.status, f.status === 429 ? "TooManyRequestsHttpException" : "HttpException", `fault ${f.status}`, headers);
      }

      if (record.authorization !== `Bearer ${apiKey}`) return ptError(401, "AuthenticationException", "Unauthenticated.");
      if (record.accept !== PANEL_ACCEPT) return ptError(400, "BadRequestHttpException", `Accept must be ${PANEL_ACCEPT}`);

      const m = /^\/api\/client\/servers\/([^/]+)(\/.*)?$/.exec(url.pathname);
      if (!m || m[1] !== serverUuid) return ptError(404, "NotFoundHttpException", "The requested resource could not be found on the server.");
      const sub = m[2] ?? "";
      if (req.method === "GET" && sub === "") {
        return Response.json({
          object: "server",
          attributes: { server_owner: true, identifier: serverUuid.slice(0, 8), uuid: serverUuid, name: "Reforger test", node: "node1", is_suspended: false },
        });
      }
      if (req.method === "GET" && sub === "/files/contents") {
        const file = record.file ?? "";
        const content = files.get(file);
        if (content === undefined) return ptError(404, "NotFoundHttpException", "The requested resource could not be found on the server.");
        return new Response(content, { headers: { "Content-Type": "text/plain" } });
      }
      if (req.method === "POST" && sub === "/files/write") {
        if (!record.file) return ptError(422, "ValidationException", "file is required");
        if (!(record.contentType ?? "").startsWith("text/plain")) {
          return ptError(400, "BadRequestHttpException", "files/write takes the raw file as text/plain");
        }
        files.set(record.file, body);
        return new Response(null, { status: 204 });
      }
      if (req.method === "POST" && sub === "/power") {
        if (powerFault && powerRemaining > 0) {
          const f = powerFault;
          powerRemaining--;
          if (powerRemaining <= 0) powerFault = null;
          const headers: Record<string, string> = f.kind === "status" && f.retryAfter ? { "Retry-After": f.retryAfter } : {};
          const status = f.kind === "status" ? f.status : 503;
          return ptError(status, status === 429 ? "TooManyRequestsHttpException" : "HttpException", `fault ${status}`, headers);
        }
        let signal: unknown;
        try {
          signal = (JSON.parse(body) as { signal?: unknown }).signal;
        } catch {
          return ptError(422, "ValidationException", "The signal field is required.");
        }
        if (!["start", "stop", "restart", "kill"].includes(String(signal))) {
          return ptError(422, "ValidationException", "The selected signal is invalid.");
        }
        signals.push(String(signal));
        if (signal === "restart" || signal === "start") {
          power.state = "starting";
          power.startedAt = Date.now();
        } else power.state = "offline";
        handle.onPower?.(String(signal));
        return new Response(null, { status: 204 });
      }
      if (req.method === "GET" && sub === "/resources") {
        const state = stateNow();
        return Response.json({
          object: "stats",
          attributes: {
            current_state: state,
            is_suspended: false,
            resources: {
              memory_bytes: 671088640,
              cpu_absolute: 1.5,
              disk_bytes: 2147483648,
              network_rx_bytes: 676237,
              network_tx_bytes: 1097738,
              uptime: state === "offline" ? 0 : Date.now() - power.startedAt,
            },
          },
        });
      }
      return ptError(404, "NotFoundHttpException", "The requested resource could not be found on the server.");
    },
  });

  const handle: FakePanel = {
    url: `http://127.0.0.1:${server.port}`,
    apiKey,
    serverUuid,
    files,
    requests,
    signals,
    power,
    fault(f) {
      fault = f;
      remaining = f?.times ?? Infinity;
    },
    powerFault(f) {
      powerFault = f;
      powerRemaining = f?.times ?? Infinity;
    },
    async stop() {
      for (const release of hanging.splice(0)) release();
      await server.stop(true);
    },
  };
  return handle;
}
