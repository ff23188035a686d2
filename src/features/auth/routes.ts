// Authentication and account: register, login, me, magic link, e-mail verification, chat
// (Discord) OAuth 2.0.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin, issueToken, signerFor, userById } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { RateLimiter } from "../../shared/rate-limit";
import { clientIp } from "../../shared/http";
import { sourceFetch } from "../../shared/url-safety";
import { CONTROL_CHARS_RE, email, password, name, errorBody } from "../../shared/schemas";
import { randomToken } from "../../shared/ids";
import {
  approvalForNewAccount,
  consumeEmailToken,
  createEmailToken,
  createUser,
  findUserByDiscordId,
  findUserByEmail,
  findUserById,
  hasAdmin,
  linkDiscordId,
  markEmailVerified,
  recordSignIn,
  verifyPassword,
} from "../users";

const MAGIC_TTL = 15 * 60_000;
const VERIFY_TTL = 48 * 3600_000;
const STATE_TTL_S = 600;

const loginAnswer = z.object({ token: z.string(), user: z.object({ user_id: z.string(), display_name: z.string() }) });
const meAnswer = z.object({ id: z.string(), email: z.string().nullable(), display_name: z.string(), role: z.enum(["user", "admin"]), is_approved: z.boolean() });
const tokenQuery = z.object({ token: z.string().min(1, { message: "is required" }) });


async function sendVerification(deps: Deps, userId: string, mail: string) {
  const token = createEmailToken(deps, "email_verify", mail, userId, VERIFY_TTL);
  // The link opens the web page, which calls GET /api/v1/auth/email-verify with the token.
  const link = `${deps.config.LOADOUT_BASE_URL}/verify-email?token=${token}`;
  await deps.mailer.send({ to: mail, subject: "Confirm your Loadout e-mail address", text: `Confirm your address by opening this link:\n\n${link}\n` });
}

async function loginResponse(deps: Deps, userId: string) {
  recordSignIn(deps, userId); // 403 for a disabled account
  const user = userById(deps, userId)!;
  return { token: await issueToken(deps, user), user: { user_id: user.id, display_name: user.display_name } };
}

export const authRoutes = (deps: Deps) => {
  // More than 10 failed logins for one e-mail or one IP in 15 minutes → 429.
  const failures = new RateLimiter(10, 15 * 60_000, () => deps.clock.now());

  return new Elysia({ prefix: "/api/v1/auth", tags: ["auth"] })
    .use(authPlugin(deps))
    .post(
      "/register",
      async ({ body, set }) => {
        const approved = approvalForNewAccount(deps);
        if (findUserByEmail(deps, body.email)) throw new AppError("user.email_taken", "email already registered");
        const id = await createUser(deps, { email: body.email, password: body.password, display_name: body.display_name, is_approved: approved, firstAccountAdmin: true });
        await sendVerification(deps, id, body.email).catch((e) => deps.log.error("verification e-mail failed", { error: String(e) }));
        set.status = 201;
        const made = userById(deps, id)!;
        return { user_id: id, role: made.role, is_approved: made.is_approved };
      },
      {
        body: z.object({ email, password, display_name: name }),
        response: {
          201: z.object({
            user_id: z.string(),
            role: z.enum(["user", "admin"]).describe("`admin` for the first account made on an instance that has no admin yet"),
            is_approved: z.boolean(),
          }),
          400: errorBody,
          403: errorBody,
          409: errorBody,
        },
        detail: {
          summary: "Register an account (LOADOUT_REGISTRATION: open, approval or closed)",
          description:
            "The first account made on an instance with no admin (by registering, a magic link or chat login) becomes its admin, approved at once; later accounts follow LOADOUT_REGISTRATION. `closed` refuses every registration, the first included (an admin then comes from `loadout user create --admin` or LOADOUT_ADMIN_EMAIL).",
        },
      },
    )
    .post(
      "/login",
      async ({ body, request, server }) => {
        const ip = clientIp(deps, request, server);
        const keys = ["e:" + body.email.trim().toLowerCase(), "ip:" + ip];
        for (const k of keys) {
          const r = failures.peek(k);
          if (!r.allowed || r.remaining === 0) throw new AppError("auth.too_many_failed_logins", "too many failed logins", { headers: { "Retry-After": String(r.retryAfter) } });
        }
        const user = findUserByEmail(deps, body.email);
        const ok = user?.password_hash ? await verifyPassword(body.password, user.password_hash) : false;
        if (!user || !ok) {
          for (const k of keys) failures.hit(k);
          throw new AppError("invalid_credentials", "invalid credentials");
        }
        return loginResponse(deps, user.id);
      },
      {
        body: z.object({ email: z.string({ error: "must be a string" }).min(1, { message: "is required" }), password: z.string({ error: "must be a string" }) }),
        response: { 200: loginAnswer, 401: errorBody, 403: errorBody, 429: errorBody },
        detail: { summary: "Log in with e-mail and password; returns a JWT" },
      },
    )
    .get(
      "/options",
      () => ({
        registration: deps.config.LOADOUT_REGISTRATION,
        chat_login: !!(deps.config.LOADOUT_DISCORD_CLIENT_ID && deps.config.LOADOUT_DISCORD_CLIENT_SECRET),
        magic_link: true,
        first_account_admin: deps.config.LOADOUT_REGISTRATION !== "closed" && !hasAdmin(deps),
      }),
      {
        response: {
          200: z.object({
            registration: z.enum(["open", "approval", "closed"]),
            chat_login: z.boolean(),
            magic_link: z.boolean(),
            first_account_admin: z.boolean().describe("true while the instance has no admin: the next account made becomes it"),
          }),
        },
        detail: { summary: "How accounts are made here: the registration mode and whether chat login is configured (public; the sign-in page reads it)" },
      },
    )
    .get("/me", ({ user }) => ({ id: user.id, email: user.email, display_name: user.display_name, role: user.role, is_approved: user.is_approved }), {
      auth: true,
      response: { 200: meAnswer, 401: errorBody },
      detail: { summary: "The current user" },
    })
    .post(
      "/magic",
      async ({ body }) => {
        // Same answer whether or not the address exists.
        const existing = findUserByEmail(deps, body.email);
        const token = createEmailToken(deps, "magic", body.email, existing?.id ?? null, MAGIC_TTL);
        // The link opens the web page, which calls GET /api/v1/auth/magic/verify with the token.
        const link = `${deps.config.LOADOUT_BASE_URL}/magic?token=${token}`;
        await deps.mailer
          .send({ to: body.email, subject: "Your Loadout login link", text: `Log in to Loadout with this link (valid 15 minutes, single use):\n\n${link}\n` })
          .catch((e) => deps.log.error("magic link e-mail failed", { error: String(e) }));
        return { ok: true };
      },
      { body: z.object({ email }), response: { 200: z.object({ ok: z.boolean() }) }, detail: { summary: "E-mail a single-use login link" } },
    )
    .get(
      "/magic/verify",
      async ({ query }) => {
        const row = consumeEmailToken(deps, "magic", query.token);
        let user = findUserByEmail(deps, row.email);
        if (!user) {
          const approved = approvalForNewAccount(deps);
          await createUser(deps, { email: row.email, display_name: row.email.split("@")[0]!, is_approved: approved, email_verified: true, firstAccountAdmin: true });
          user = findUserByEmail(deps, row.email)!;
        } else if (!user.email_verified) {
          markEmailVerified(deps, user.id);
        }
        return loginResponse(deps, user.id);
      },
      { query: tokenQuery, response: { 200: loginAnswer, 401: errorBody, 403: errorBody }, detail: { summary: "Exchange a magic-link token for a JWT" } },
    )
    .get(
      "/email-verify",
      ({ query }) => {
        const row = consumeEmailToken(deps, "email_verify", query.token);
        if (row.user_id) markEmailVerified(deps, row.user_id);
        return { ok: true };
      },
      { query: tokenQuery, response: { 200: z.object({ ok: z.boolean() }), 401: errorBody }, detail: { summary: "Verify an e-mail address" } },
    )
    .get(
      "/chat",
      async ({ redirect }) => {
        const clientId = deps.config.LOADOUT_DISCORD_CLIENT_ID;
        if (!clientId) throw new AppError("auth.chat_login_not_configured", "chat login is not configured");
        const now = Math.floor(deps.clock.now() / 1000);
        const state = await signerFor(deps).sign({ purpose: "chat-oauth", nonce: randomToken(12), iat: now, exp: now + STATE_TTL_S });
        const url = new URL(deps.config.LOADOUT_DISCORD_AUTHORIZE_URL);
        url.searchParams.set("response_type", "code");
        url.searchParams.set("client_id", clientId);
        url.searchParams.set("scope", "identify email");
        url.searchParams.set("state", state);
        url.searchParams.set("redirect_uri", `${deps.config.LOADOUT_BASE_URL}/api/v1/auth/chat/callback`);
        return redirect(url.toString(), 302);
      },
      { detail: { summary: "Redirect to the chat platform's OAuth 2.0 login" } },
    )
    .get(
      "/chat/callback",
      async ({ query }) => {
        const signer = signerFor(deps);
        const { LOADOUT_DISCORD_CLIENT_ID: clientId, LOADOUT_DISCORD_CLIENT_SECRET: secret, LOADOUT_DISCORD_API_URL: api } = deps.config;
        if (!clientId || !secret) throw new AppError("auth.chat_login_not_configured", "chat login is not configured");
        if (query.error) throw new AppError("auth.chat_login_refused", `chat login was refused: ${query.error}`);
        const state = query.state ? await signer.verify(query.state) : false;
        if (!state || state.purpose !== "chat-oauth") throw new AppError("auth.chat_login_state_invalid", "invalid state");
        if (!query.code) throw new AppError("request.invalid", "code: is required");
        // Only the configured API's origin is asked: a redirect elsewhere is not followed (the
        // client secret and the user's access token go nowhere else).
        const source = { origin: new URL(api).origin, fetchImpl: deps.fetch };
        const tokenRes = await sourceFetch(
          `${api}/oauth2/token`,
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
            body: new URLSearchParams({
              grant_type: "authorization_code",
              code: query.code,
              redirect_uri: `${deps.config.LOADOUT_BASE_URL}/api/v1/auth/chat/callback`,
              client_id: clientId,
              client_secret: secret,
            }),
            signal: AbortSignal.timeout(10_000),
          },
          source,
        ).catch(() => null);
        if (!tokenRes || !tokenRes.ok) throw new AppError("auth.chat_login_refused", "chat login failed: the code was not accepted");
        const tok = (await tokenRes.json().catch(() => ({}))) as { access_token?: string };
        if (!tok.access_token) throw new AppError("auth.chat_provider_failed", "chat login failed: no access token");
        const meRes = await sourceFetch(`${api}/v10/users/@me`, { headers: { authorization: `Bearer ${tok.access_token}` }, signal: AbortSignal.timeout(10_000) }, source).catch(
          () => null,
        );
        const me = meRes?.ok ? ((await meRes.json().catch(() => null)) as { id?: string; username?: string; global_name?: string | null; email?: string | null; verified?: boolean } | null) : null;
        if (!me?.id) throw new AppError("auth.chat_provider_failed", "chat login failed: could not read the chat profile");

        let user = findUserByDiscordId(deps, me.id);
        const verifiedEmail = me.email && me.verified ? me.email.toLowerCase() : null;
        if (!user && verifiedEmail) {
          user = findUserByEmail(deps, verifiedEmail);
          if (user) linkDiscordId(deps, user.id, me.id);
        }
        if (!user) {
          const approved = approvalForNewAccount(deps);
          const id = await createUser(deps, {
            email: verifiedEmail,
            display_name: (me.global_name || me.username || "player").replace(new RegExp(CONTROL_CHARS_RE, "g"), "").trim().slice(0, 100) || "player",
            is_approved: approved,
            email_verified: !!verifiedEmail,
            discord_id: me.id,
            firstAccountAdmin: true,
          });
          user = findUserById(deps, id)!;
        }
        return loginResponse(deps, user.id);
      },
      {
        query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
        response: { 200: loginAnswer, 400: errorBody, 401: errorBody, 403: errorBody },
        detail: { summary: "OAuth 2.0 callback of the chat platform; returns a JWT" },
      },
    );
};
