// Panel deploy target: Pterodactyl / Pelican client API (docs/deploy.md "Deployments").
import { DeployError, RateLimitedError } from "./errors";
import { parseRetryAfter } from "../../../shared/retry";
import type { ConfigFileIO, ConfigTarget, PowerState } from "./target";

export interface PanelCredentials {
  panel_url: string;
  api_key: string;
  server_uuid: string;
}

export interface PanelOptions {
  /** Per-request timeout, ms (default 10 s). */
  timeoutMs?: number;
  /** How many times a 429 is retried (default 2). */
  maxRetries?: number;
  /** Longest Retry-After we wait for inside one deploy, ms (default 10 s); longer gives up. */
  maxRetryWaitMs?: number;
  /** Injected for tests; defaults to Bun.sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** The fetch to use (Deps.fetch); defaults to the global one. */
  fetch?: typeof fetch;
  /** Called just before each request is sent (the URL-safety check re-runs here). */
  beforeRequest?: (url: URL) => Promise<void>;
}

export const PANEL_ACCEPT = "Application/vnd.pterodactyl.v1+json";

type Purpose = "server" | "read" | "write" | "power";

export class PanelTarget implements ConfigTarget {
  readonly label: string;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly creds: PanelCredentials,
    readonly filePath: string,
    private readonly options: PanelOptions = {},
  ) {
    const origin = creds.panel_url.replace(/\/+$/, "");
    this.base = `${origin}/api/client/servers/${encodeURIComponent(creds.server_uuid)}`;
    let host = origin;
    try {
      host = new URL(origin).host;
    } catch {
      // validated at the credentials endpoint; keep the raw text for the label
    }
    this.label = `panel ${host} (server ${creds.server_uuid})`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 10_000;
    this.sleep = options.sleep ?? ((ms) => Bun.sleep(ms));
  }

  private statusError(status: number, purpose: Purpose, res: Response): DeployError {
    if (status === 401) return new DeployError(`the panel rejected the API key (401 Unauthorized) at ${this.label}`);
    if (status === 403) return new DeployError(`the panel API key has no access to server ${this.creds.server_uuid} (403 Forbidden)`);
    if (status === 404) {
      if (purpose === "read") return new DeployError(`file not found: ${this.filePath}`);
      return new DeployError(`server ${this.creds.server_uuid} not found on the panel (404)`);
    }
    if (status === 429) {
      const wait = parseRetryAfter(res.headers.get("retry-after"), Date.now());
      const hint = wait === null ? "" : `; try again in ${Math.ceil(wait / 1000)} s`;
      return new RateLimitedError(`the panel is rate limiting requests (429 Too Many Requests)${hint}`, wait);
    }
    if (status >= 500) return new DeployError(`the panel answered ${status} (server error) at ${this.label}; try again later`);
    return new DeployError(`the panel answered ${status} at ${this.label}`);
  }

  private networkError(err: unknown): DeployError {
    const e = err as { name?: string; code?: string; message?: string };
    if (e?.name === "TimeoutError" || e?.name === "AbortError") {
      return new DeployError(`the panel at ${this.label} did not answer within ${Math.round(this.timeoutMs / 1000)} s`);
    }
    const code = e?.code ?? "";
    if (code === "ConnectionRefused" || code === "ECONNREFUSED") return new DeployError(`connection refused by ${this.label}`);
    if (code === "ENOTFOUND" || code === "EAI_AGAIN" || /DNS|getaddrinfo/i.test(e?.message ?? "")) {
      return new DeployError(`panel host not found: ${this.label}`);
    }
    if (/certificate|TLS|SSL/i.test(`${code} ${e?.message ?? ""}`)) {
      return new DeployError(`TLS error talking to ${this.label}: ${(e?.message ?? code).split("\n")[0]}`);
    }
    return new DeployError(`could not reach ${this.label}: ${(e?.message ?? String(code)).split("\n")[0]}`);
  }

  /** One API call with timeout and 429 handling; returns the response body as text. */
  private async call(
    method: "GET" | "POST",
    path: string,
    purpose: Purpose,
    body?: string,
    contentType = "text/plain",
  ): Promise<string> {
    const url = new URL(`${this.base}${path}`);
    for (let attempt = 0; ; attempt++) {
      if (this.options.beforeRequest) await this.options.beforeRequest(url);
      const headers: Record<string, string> = {
        Authorization: `Bearer ${this.creds.api_key}`,
        Accept: PANEL_ACCEPT,
        "User-Agent": "Loadout",
      };
      if (body !== undefined) headers["Content-Type"] = contentType;
      let res: Response;
      let text: string;
      try {
        res = await (this.options.fetch ?? fetch)(url, {
          method,
          headers,
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        // The file's bytes as text, a byte order mark kept (Response.text() would drop it, and the
        // file written back would lose it).
        text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
      } catch (err) {
        throw this.networkError(err);
      }
      if (res.status === 429 && attempt < this.maxRetries) {
        const wait = parseRetryAfter(res.headers.get("retry-after"), Date.now()) ?? 1000 * 2 ** attempt;
        if (wait <= this.maxRetryWaitMs) {
          await this.sleep(wait);
          continue;
        }
      }
      if (res.status >= 300 && res.status < 400) {
        throw new DeployError(`the panel answered with a redirect (${res.status}); check the panel URL at ${this.label}`);
      }
      if (!res.ok) throw this.statusError(res.status, purpose, res);
      return text;
    }
  }

  async ping(): Promise<void> {
    const text = await this.call("GET", "", "server");
    try {
      const doc = JSON.parse(text) as { attributes?: unknown };
      if (!doc || typeof doc !== "object" || !("attributes" in doc)) throw new Error("shape");
    } catch {
      throw new DeployError(`${this.label} did not answer like a panel client API; check the panel URL`);
    }
  }

  /** POST /power {"signal":"restart"} → 204 (the panel's client API). */
  async restart(): Promise<{ exit_status: null; output: null }> {
    await this.call("POST", "/power", "power", JSON.stringify({ signal: "restart" }), "application/json");
    return { exit_status: null, output: null };
  }

  /** GET /resources → attributes.current_state (and resources.uptime, ms). */
  async powerState(): Promise<PowerState> {
    const text = await this.call("GET", "/resources", "server");
    let doc: { attributes?: { current_state?: unknown; resources?: { uptime?: unknown } } };
    try {
      doc = JSON.parse(text);
    } catch {
      throw new DeployError(`${this.label} answered /resources with something that is not JSON`);
    }
    const state = doc?.attributes?.current_state;
    if (typeof state !== "string") throw new DeployError(`${this.label} answered /resources without attributes.current_state`);
    const uptime = doc.attributes?.resources?.uptime;
    return { current_state: state, uptime_ms: typeof uptime === "number" && Number.isFinite(uptime) ? uptime : null };
  }

  async session<T>(fn: (io: ConfigFileIO) => Promise<T>): Promise<T> {
    const file = `?file=${encodeURIComponent(this.filePath)}`;
    return fn({
      restart: () => this.restart(),
      read: () => this.call("GET", `/files/contents${file}`, "read"),
      // The panel replaces the file whole; it keeps no backup (SFTP does).
      write: async (next) => {
        await this.call("POST", `/files/write${file}`, "write", next);
      },
    });
  }
}
