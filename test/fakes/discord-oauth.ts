// A local fake of the chat platform's (Discord's) OAuth 2.0 endpoints:
// POST /oauth2/token (form-encoded authorization_code) and GET /v10/users/@me.
export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  email: string | null;
  verified: boolean;
}

export function startFakeDiscord(opts: { clientId: string; clientSecret: string }) {
  /** code → user it logs in */
  const codes = new Map<string, FakeDiscordUser>();
  const tokens = new Map<string, FakeDiscordUser>();
  const requests: { path: string; form?: Record<string, string>; authorization?: string | null }[] = [];
  /** path → origin: the next request to that path answers 307 to the same path there. */
  const redirects = new Map<string, string>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const away = redirects.get(url.pathname);
      if (away !== undefined) {
        redirects.delete(url.pathname);
        requests.push({ path: url.pathname });
        return new Response(null, { status: 307, headers: { location: `${away}${url.pathname}` } });
      }
      if (req.method === "POST" && url.pathname === "/oauth2/token") {
        if (!req.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) return Response.json({ error: "invalid_request" }, { status: 400 });
        const form = Object.fromEntries(new URLSearchParams(await req.text()));
        requests.push({ path: url.pathname, form });
        if (form.client_id !== opts.clientId || form.client_secret !== opts.clientSecret) return Response.json({ error: "invalid_client" }, { status: 401 });
        if (form.grant_type !== "authorization_code" || !form.redirect_uri) return Response.json({ error: "invalid_request" }, { status: 400 });
        const user = codes.get(form.code ?? "");
        if (!user) return Response.json({ error: "invalid_grant" }, { status: 400 });
        codes.delete(form.code!);
        const token = crypto.randomUUID();
        tokens.set(token, user);
        return Response.json({ access_token: token, token_type: "Bearer", expires_in: 604800, scope: "identify email" });
      }
      if (req.method === "GET" && url.pathname === "/v10/users/@me") {
        requests.push({ path: url.pathname, authorization: req.headers.get("authorization") });
        const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
        const user = token ? tokens.get(token) : undefined;
        if (!user) return Response.json({ message: "401: Unauthorized", code: 0 }, { status: 401 });
        return Response.json(user);
      }
      return Response.json({ message: "404: Not Found" }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    /** Registers a one-time authorization code for a user. */
    issueCode(user: FakeDiscordUser): string {
      const code = crypto.randomUUID();
      codes.set(code, user);
      return code;
    },
    /** The next request to `path` answers 307 to the same path on `origin` (another host). */
    redirectNext(path: string, origin: string) {
      redirects.set(path, origin);
    },
    close: () => server.stop(true),
  };
}
