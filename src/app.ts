// createApp(deps): the HTTP plugin first (errors, request id, limits), CORS, API docs, then
// every feature of the registry. No feature composes another; only this file composes.
import { Elysia } from "elysia";
import type { Server } from "bun";
import { cors } from "@elysiajs/cors";
import { openapi } from "@elysiajs/openapi";
import { z } from "zod";
import type { Deps } from "./deps";
import { httpPlugin } from "./shared/http";
import { features } from "./features/index";
import { VERSION } from "./version";
// The Scalar UI bundle, embedded in the binary so the docs work with no internet.
// (a relative path: the package's exports map does not expose dist/browser)
import scalarBundle from "../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };

const SCALAR_PATH = "/swagger/assets/scalar.js";

import { applyResponseValidation, documented } from "./shared/response-validation";
import { applyRequestValidation } from "./shared/request-validation";

export function createApp(deps: Deps) {
  const origins = deps.config.LOADOUT_CORS_ORIGINS.trim();
  // The http plugin reads client addresses from the listening server: this app's, once it listens.
  let self: { server: Server<any> | null } | null = null;
  let app = new Elysia({ normalize: true })
    .use(httpPlugin(deps, () => self?.server))
    .use(
      cors({
        origin: origins === "*" ? true : origins.split(",").map((o) => o.trim()),
        credentials: false,
        allowedHeaders: ["Authorization", "Content-Type", "X-API-Key", "X-Request-Id"],
        exposeHeaders: ["X-Request-Id", "Retry-After", "Content-Disposition"],
      }),
    )
    .get(SCALAR_PATH, () => new Response(Bun.file(scalarBundle), { headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }), {
      detail: { hide: true },
    })
    .use(
      // The hook is local to this wrapper, so it runs on the openapi plugin's routes only (on the
      // app it ran after every handler of every route).
      new Elysia()
        .onAfterHandle(({ path, response }) => {
          if (path === "/swagger/json" && response && typeof response === "object") fillRequestBodies(app as any, response as any);
        })
        .use(openapi({
        path: "/swagger",
        specPath: "/swagger/json",
        provider: "scalar",
        scalar: { cdn: SCALAR_PATH } as any,
        mapJsonSchema: { zod: (schema: any) => z.toJSONSchema(documented(schema), { unrepresentable: "any", io: "input" }) },
        exclude: { paths: [SCALAR_PATH] },
        documentation: {
          info: {
            title: "Loadout API",
            version: VERSION,
            description:
              "Mod catalog, mod lists and game server management for Arma Reforger communities. " +
              "Authenticate with `Authorization: Bearer <JWT>` (POST /api/v1/auth/login) or `X-API-Key: <key>` (POST /api/v1/api-keys). " +
              "Errors are always `{error, code}`: `error` in words for people, `code` a stable machine code with one status (see the Error schema and docs/architecture.md \"Errors\").",
          },
          components: {
            securitySchemes: {
              bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
              apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
            },
          },
          security: [{ bearer: [] }, { apiKey: [] }],
        },
      })),
    );
  self = app;
  for (const f of features) {
    if (f.routes) app = app.use(f.routes(deps)) as any;
  }
  // Response schemas document every route; they validate only in the test app (strict).
  applyResponseValidation(app as any, deps.config.LOADOUT_RESPONSE_VALIDATION);
  // Request schemas refuse with AppError, so no rejected body is ever serialised.
  applyRequestValidation(app as any);
  return app;
}

/**
 * @elysiajs/openapi leaves `requestBody.content` empty on routes that have a function body
 * parser, and ours is global (src/shared/http.ts). Fill those bodies from the routes' zod schemas.
 */
function fillRequestBodies(app: { routes: { method: string; path: string; hooks?: any }[] }, doc: { paths?: Record<string, any> }) {
  if ((doc as any)["x-bodies-filled"] || !doc.paths) return;
  for (const route of app.routes) {
    const body = route.hooks?.body;
    if (!body || !body["~standard"]) continue;
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const op = doc.paths[path]?.[route.method.toLowerCase()];
    if (!op?.requestBody || Object.keys(op.requestBody.content ?? {}).length > 0) continue;
    try {
      const { $schema, ...schema } = z.toJSONSchema(body, { unrepresentable: "any", io: "input" }) as any;
      op.requestBody.content = { "application/json": { schema } };
    } catch {
      // a schema zod cannot express stays undocumented rather than breaking the document
    }
  }
  (doc as any)["x-bodies-filled"] = true;
}

export type App = ReturnType<typeof createApp>;
