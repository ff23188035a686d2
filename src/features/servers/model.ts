// Request and response schemas of registered game servers, deployments, deploy requests and the
// pre-flight (RCON's are in rcon/model.ts, moderation's in moderation/model.ts).
import { z } from "zod";
import { name, text2000, uuid } from "../../shared/schemas";

export const connectionType = z.enum(["panel", "sftp"], { error: "must be panel or sftp" });

const filePath = z
  .string({ error: "must be a string" })
  .transform((v) => v.trim())
  .refine((v) => v.length >= 1 && v.length <= 1000, { message: "must be 1 to 1000 characters" })
  .refine((v) => !v.includes("\0") && !/[\r\n]/.test(v), { message: "must not contain control characters" })
  .refine((v) => !v.endsWith("/"), { message: "must name a file, not a directory" });

/** "host" or "host:port" ([v6]:port for IPv6) where the server answers A2S queries. */
const queryAddress = z
  .string({ error: "must be a string" })
  .transform((v) => v.trim())
  .refine((v) => parseQueryAddress(v) !== null, { message: "must be host or host:port (port 1 to 65535)" });

/** Splits a query address; the port defaults to the game's A2S port 17777. */
export function parseQueryAddress(v: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?))(?::(\d{1,5}))?$/.exec(v);
  if (!m || v.length > 260) return null;
  const port = m[3] === undefined ? 17777 : Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { host: (m[1] ?? m[2])!, port };
}

export const restartMode = z.enum(["none", "now", "when_empty"], { error: "must be none, now or when_empty" });
export type RestartMode = z.infer<typeof restartMode>;

const seconds = (min: number, max: number) =>
  z
    .number({ error: "must be an integer" })
    .int({ message: "must be an integer" })
    .min(min, { message: `must be ${min} to ${max}` })
    .max(max, { message: `must be ${min} to ${max}` });

/** Run over SSH exactly as stored (it is not a secret: whoever sees the server sees it). */
const restartCommand = z
  .string({ error: "must be a string" })
  .refine((v) => v.trim().length >= 1 && v.length <= 2000, { message: "must be 1 to 2000 characters" })
  .refine((v) => !v.includes("\0"), { message: "must not contain NUL characters" });

/** The restart fields of POST and PUT /servers (docs/deploy.md "Restart, verify, roll back"). */
/** How a deploy restarts the server: its connection (panel power, SSH restart_command) or RCON's #shutdown (a supervised process). */
export const restartVia = z.enum(["connection", "rcon"], { error: "must be connection or rcon" });

const restartFields = {
  restart: restartMode.optional(),
  restart_via: restartVia.optional(),
  empty_wait_s: seconds(0, 86_400).optional(),
  verify_timeout_s: seconds(10, 3600).optional(),
  restart_command: restartCommand.nullable().optional(),
};

/** A folder on the server (the addons folder), absolute or relative to the SFTP login. */
const addonsPath = filePath;

export const createServerBody = z.object({
  name,
  connection_type: connectionType,
  file_path: filePath,
  linked_list_id: uuid.nullable().optional(),
  auto_deploy: z.boolean({ error: "must be a boolean" }).optional().default(false),
  query_address: queryAddress.nullable().optional(),
  items_scan: z.boolean({ error: "must be a boolean" }).optional().default(false),
  addons_path: addonsPath.nullable().optional(),
  ...restartFields,
});
export type CreateServerBody = z.output<typeof createServerBody>;

export const updateServerBody = z.object({
  name: name.optional(),
  file_path: filePath.optional(),
  linked_list_id: uuid.nullable().optional(),
  auto_deploy: z.boolean({ error: "must be a boolean" }).optional(),
  query_address: queryAddress.nullable().optional(),
  items_scan: z.boolean({ error: "must be a boolean" }).optional(),
  addons_path: addonsPath.nullable().optional(),
  ...restartFields,
});
export type UpdateServerBody = z.output<typeof updateServerBody>;

const hostName = z
  .string({ error: "must be a string" })
  .transform((v) => v.trim())
  .refine((v) => v.length >= 1 && v.length <= 253, { message: "must be 1 to 253 characters" })
  .refine((v) => /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(v), {
    message: "must be a host name or IP address",
  });

/** Credentials by connection_type (spec "Credentials shape by connection_type"). */
export const panelCredentials = z.object({
  panel_url: z
    .string({ error: "must be a string" })
    .transform((v) => v.trim())
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
        } catch {
          return false;
        }
      },
      { message: "must be an http(s) URL" },
    )
    .transform((v) => v.replace(/\/+$/, "")),
  api_key: z
    .string({ error: "must be a string" })
    .refine((v) => v.length >= 1 && v.length <= 1000, { message: "must be 1 to 1000 characters" })
    .refine((v) => !/[\s]/.test(v), { message: "must not contain whitespace" }),
  server_uuid: z
    .string({ error: "must be a string" })
    .transform((v) => v.trim())
    .refine((v) => /^[A-Za-z0-9-]{1,64}$/.test(v), { message: "must be the panel's server identifier (letters, digits, -)" }),
});
export type PanelCredentialsInput = z.output<typeof panelCredentials>;

export const sftpCredentials = z.object({
  host: hostName,
  port: z
    .number({ error: "must be an integer" })
    .int({ message: "must be an integer" })
    .min(1, { message: "must be 1 to 65535" })
    .max(65535, { message: "must be 1 to 65535" })
    .optional()
    .default(22),
  username: z
    .string({ error: "must be a string" })
    .refine((v) => v.length >= 1 && v.length <= 100, { message: "must be 1 to 100 characters" }),
  password: z
    .string({ error: "must be a string" })
    .refine((v) => v.length >= 1 && v.length <= 1000, { message: "must be 1 to 1000 characters" }),
});
export type SftpCredentialsInput = z.output<typeof sftpCredentials>;

/** The route accepts any object; the service validates it against the server's connection_type. */
export const credentialsBody = z.record(z.string(), z.unknown(), { error: "must be an object" });

/** A key of the server's config to rename in the deploy's write: a `rename_key` fix of the pre-flight. */
export const renameKey = z.object({
  path: z.string().min(1).max(500),
  from: z.string().min(1).max(200),
  to: z.string().min(1).max(200),
});

export const deployBody = z
  .object({
    list_id: uuid.optional(),
    restart: restartMode.optional(),
    force: z.boolean({ error: "must be a boolean" }).optional(),
    /** Keys of the server's config renamed in the same write (the pre-flight's rename fixes). */
    rename_keys: z.array(renameKey).max(50, { message: "at most 50 keys" }).optional(),
    /** Restart even when the server's config already holds these mods (otherwise such a deploy writes nothing and restarts nothing). */
    restart_anyway: z.boolean({ error: "must be a boolean" }).optional(),
  })
  .optional()
  .transform((v) => v ?? {});

/** POST /servers/:id/deploy-request takes only list_id: an approved request runs with the server's restart mode. */
export const deployRequestBody = z
  .object({ list_id: uuid.optional() })
  .optional()
  .transform((v) => v ?? {});

export const deploymentParams = z.object({ id: z.string(), did: z.string() });

export const requireApprovalBody = z.object({
  require_deploy_approval: z.boolean({ error: "must be a boolean" }),
});

export const decideRequestBody = z.object({
  status: z.enum(["approved", "rejected"], { error: "must be approved or rejected" }),
  note: text2000.optional(),
});

export const idParams = z.object({ id: z.string() });

// ---- responses

export const lastTestView = z.object({
  deployment_id: z.string(),
  status: z.enum(["pending", "running", "success", "failed"]),
  error_message: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

export const serverView = z.object({
  id: z.string(),
  name: z.string(),
  connection_type: connectionType,
  file_path: z.string(),
  linked_list_id: z.string().nullable(),
  auto_deploy: z.boolean(),
  /** Where the server answers A2S queries (player counts every scan); null: the SFTP host on port 17777, or not polled (panel). */
  query_address: z.string().nullable(),
  /** SFTP: read the items of the mods in the server's addons folder on the items schedule. */
  items_scan: z.boolean(),
  /** SFTP: the addons folder; null = `addons/` beside the config file. */
  addons_path: z.string().nullable(),
  /** After a deploy: none (the mods take effect at the next restart), now, or when_empty. */
  restart: restartMode,
  /** when_empty: longest wait for 0 players before restarting anyway, seconds. */
  empty_wait_s: z.number().int(),
  /** How long a restarted server has to answer again before the deploy is rolled back, seconds. */
  verify_timeout_s: z.number().int(),
  /** SFTP: the command run over SSH to restart the game server, or null. */
  restart_command: z.string().nullable(),
  has_credentials: z.boolean(),
  /** When the credentials were last stored (they are never returned), or null. */
  credentials_set_at: z.string().nullable(),
  /** SFTP: the host key pinned at the first successful connection (as `ssh-keygen -lf` prints it), or null. */
  host_key_fingerprint: z.string().nullable(),
  /** Status of the latest connection test, or null when never tested. */
  last_test_status: z.enum(["pending", "running", "success", "failed"]).nullable(),
  last_test: lastTestView.nullable(),
  /** How a deploy restarts the server: `connection` (panel power signal, SSH restart_command) or `rcon` (#shutdown; a supervisor restarts the process). */
  restart_via: restartVia,
  /** RCON (docs/rcon.md): where it answers and how the connection is, or null without RCON settings; the password is never returned. */
  rcon: z
    .object({
      host: z.string(),
      port: z.number().int(),
      status: z.enum(["connected", "connecting", "failed"]),
      error: z.string().nullable(),
      connected_at: z.string().nullable(),
      last_seen_at: z.string().nullable(),
    })
    .nullable(),
  /** The server's config has an `rcon` block with a password: PUT …/rcon {from_config: true} takes it. */
  rcon_suggested: z.object({ port: z.number().int() }).nullable(),
  /** The server's entry in Live (/live/:id: the live scan's row for it), once a scan has seen it. */
  live_server_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ServerView = z.infer<typeof serverView>;

export const serverJsonModView = z.object({
  modId: z.string(),
  name: z.string(),
  version: z.string().optional(),
  /** server.json's per-mod `required`, when the deploy wrote it. */
  required: z.boolean().optional(),
});

export const deploymentView = z.object({
  id: z.string(),
  deployment_id: z.string(),
  server_id: z.string(),
  kind: z.enum(["deploy", "test"]),
  status: z.enum(["pending", "running", "success", "failed"]),
  trigger: z.string(),
  list_id: z.string().nullable(),
  request_id: z.string().nullable(),
  requested_by: z.string().nullable(),
  item_count: z.number().int().nullable(),
  snapshot_json: z.array(serverJsonModView).nullable(),
  error_message: z.string().nullable(),
  /** Deployed with {"force": true} past the pre-flight's server errors. */
  forced: z.boolean(),
  /** The server's config already held these mods: nothing was written, and nothing restarted unless `restart_anyway`. */
  config_unchanged: z.boolean(),
  restart_anyway: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** The restart mode this deployment runs with. */
  restart: restartMode,
  /** Where a deploy is: writing, waiting_for_empty, restarting, verifying, rolling_back, done; null for tests and before it starts. */
  phase: z.enum(["writing", "waiting_for_empty", "restarting", "verifying", "rolling_back", "done"]).nullable(),
  /** When the current phase began (how long it has waited). */
  phase_started_at: z.string().nullable(),
  /** when_empty: the time it restarts anyway when players stay on. */
  wait_until: z.string().nullable(),
  /** The limits this deploy runs with (the server's when it was queued): the longest wait for an empty server, and for the restarted server to answer, seconds. */
  empty_wait_s: z.number().int().nullable(),
  verify_timeout_s: z.number().int().nullable(),
  /** Why the wait for an empty server ended: empty, restart_now or timeout. */
  wait_ended: z.enum(["empty", "restart_now", "timeout"]).nullable(),
  restarted_at: z.string().nullable(),
  /** SFTP restart_command: its exit status and the last lines of its output. */
  restart_exit_status: z.number().int().nullable(),
  restart_output: z.string().nullable(),
  verified_at: z.string().nullable(),
  /** What the last check saw while verifying ("panel reports starting", "no A2S answer on host:port"). */
  verify_note: z.string().nullable(),
  rolled_back: z.boolean(),
  /** Why it was rolled back ("server did not answer on host:port within 600 s after the restart"), once it was. */
  rollback_reason: z.string().nullable(),
  /** When the server answered again with the previous config (the rollback done), or null. */
  rolled_back_at: z.string().nullable(),
  /** A failed deploy: the phase it failed in (verifying when it was rolled back; rolling_back when the rollback failed too), else null. */
  failed_phase: z.enum(["writing", "waiting_for_empty", "restarting", "verifying", "rolling_back"]).nullable(),
  /** Only when rolling back failed too: the config before this deploy and the one it wrote, to restore by hand. */
  previous_config: z.string().nullable(),
  new_config: z.string().nullable(),
});
export type DeploymentView = z.infer<typeof deploymentView>;

/** GET /servers/:id/status: the server as it answers now (A2S, RCON's roster) and what Loadout deployed to it last. */
export const serverStatusView = z.object({
  /** Whether it answered A2S just now; null when there is no address to ask (a panel server without query_address). */
  reachable: z.boolean().nullable(),
  /** Why it is not reachable, or why that is not known, in words. */
  note: z.string().nullable(),
  /** Where players connect (the answering host and the game port its A2S answer names), else null. */
  address: z.string().nullable(),
  /** Where it was asked (query_address, else the SFTP host on 17777). */
  query_address: z.string().nullable(),
  name: z.string().nullable(),
  scenario: z.string().nullable(),
  players: z.number().int().nullable(),
  max_players: z.number().int().nullable(),
  /** rcon: the roster read over RCON (fresh), a2s: the A2S answer. */
  players_from: z.enum(["rcon", "a2s"]).nullable(),
  game_version: z.string().nullable(),
  /** When the server was asked (answers are kept a few seconds). */
  checked_at: z.string(),
  /** The last successful deploy: the list and when. */
  deployed: z
    .object({ deployment_id: z.string(), list_id: z.string().nullable(), list_name: z.string().nullable(), mod_count: z.number().int().nullable(), finished_at: z.string().nullable() })
    .nullable(),
  /** The server's entry in Live (/live/:id), once a scan has seen it. */
  live_server_id: z.string().nullable(),
});

export const deployRequestView = z.object({
  id: z.string(),
  request_id: z.string(),
  server_id: z.string(),
  server_name: z.string(),
  list_id: z.string(),
  requested_by: z.string(),
  requested_by_name: z.string().nullable(),
  status: z.enum(["pending", "approved", "rejected"]),
  note: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  deployment_id: z.string().nullable(),
  created_at: z.string(),
});
export type DeployRequestView = z.infer<typeof deployRequestView>;

export const deploymentIdView = z.object({ deployment_id: z.string() });
export const requestIdView = z.object({ request_id: z.string(), status: z.literal("pending") });
/** POST /servers/:id/deploy: a deployment, or a deploy request when the approval gate applies. */
export const deployResultView = z.union([
  z.object({ deployment_id: z.string() }),
  z.object({ request_id: z.string(), status: z.literal("pending") }),
]);
export const credentialsStoredView = z.object({ ok: z.literal(true), has_credentials: z.literal(true) });
export const approvalView = z.object({ ok: z.literal(true), require_deploy_approval: z.boolean() });

// ---- pre-flight for the target server (src/features/servers/deploy/preflight.ts)

export const preflightFixView = z.discriminatedUnion("action", [
  /** `adds`: the mod and those of its dependencies the list lacks (POST /lists/:id/mods with with_dependencies adds them all); the label says so ("Add Quartermaster Optics and 3 more"). */
  z.object({ action: z.literal("add_mod"), label: z.string(), workshop_id: z.string(), adds: z.array(z.string()) }),
  z.object({ action: z.literal("pin_version"), label: z.string(), workshop_id: z.string(), version: z.string() }),
  z.object({ action: z.literal("choose_scenario"), label: z.string() }),
  /** A misspelt or legacy key of the server's config: deploy with it in `rename_keys` to rename it in the same write. */
  z.object({ action: z.literal("rename_key"), label: z.string(), path: z.string(), from: z.string(), to: z.string() }),
]);

export const findingView = z.object({
  kind: z.string(),
  severity: z.enum(["error", "warning", "info"]),
  message: z.string(),
  mods: z.array(z.string()),
  /** config_invalid: the key's path in the server's config ("game.maxplayers") and its line. */
  path: z.string().optional(),
  line: z.number().optional(),
  /** Server findings: the fix (add a mod, pin a version: one API call; rename a key: in the deploy's `rename_keys`; choose another scenario: by hand). */
  fix: preflightFixView.optional(),
});

/** A finding of GET /lists/:id/check: whether it stops a deploy to the server checked against (the deploy's 409 uses the same rule). */
export const checkFindingView = findingView.extend({ blocks_deploy: z.boolean() });

export const serverCheckView = z.object({
  server_id: z.string(),
  server_name: z.string(),
  /** game.scenarioId as the last connection test or deploy read it (null: not read yet, or none). */
  scenario_id: z.string().nullable(),
  scenario_name: z.string().nullable(),
  config_read_at: z.string().nullable(),
  game_version: z.string().nullable(),
  /** a2s (the server answered), live (the live source's last report), null (unknown). */
  game_version_from: z.enum(["a2s", "live"]).nullable(),
  /** Why the game version is unknown (the version findings are skipped then). */
  game_version_note: z.string().nullable(),
  download: z.object({
    full_bytes: z.number(),
    full_mods: z.number(),
    change_bytes: z.number().nullable(),
    change_new: z.number().nullable(),
    change_updated: z.number().nullable(),
  }),
});

/** GET /lists/:id/check (list-check-routes.ts). */
export const checkQuery = z.object({ share: z.string().max(100).optional(), server_id: z.string().max(100).optional() });

export const checkResponse = z.object({
  ok: z.boolean(),
  mod_count: z.number(),
  total_size_bytes: z.number(),
  total_download_size_bytes: z.number(),
  findings: z.array(checkFindingView),
  /** With ?server_id=: the server the findings were checked against (pre-flight). */
  server: serverCheckView.optional(),
});

/** 409 of a deploy its pre-flight refused. */
export const deployBlockedView = z.object({ error: z.string(), findings: z.array(findingView) });
