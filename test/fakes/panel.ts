// A local fake of the panel client API (Pterodactyl / Pelican, external-formats.md §4).
// It checks the Authorization and Accept headers and the raw text/plain body of files/write,
// and can be told to answer 401, 404, 429, 500, redirect elsewhere, or never answer (hang).
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
  const hanging: Array<() => void> = [];

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch: async (req) => {
      const url = new URL(req.url);
      const body = await req.text();
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
      if (req.method === "POST" && sub === "/power") return new Response(null, { status: 204 });
      return ptError(404, "NotFoundHttpException", "The requested resource could not be found on the server.");
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    apiKey,
    serverUuid,
    files,
    requests,
    fault(f) {
      fault = f;
      remaining = f?.times ?? Infinity;
    },
    async stop() {
      for (const release of hanging.splice(0)) release();
      await server.stop(true);
    },
  };
}
