// The servers feature's queries (servers, credentials, deployments, deploy requests).
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { DB, Tx } from "../../db/client";
import { lists } from "../lists/tables";
import { users } from "../users/tables";
import { deployments, deployRequests, serverCredentials, servers } from "./tables";

export type TxLike = Tx;
export type ServerRow = typeof servers.$inferSelect;
export type DeploymentRow = typeof deployments.$inferSelect;
export type DeployRequestRow = typeof deployRequests.$inferSelect;
export type CredentialRow = typeof serverCredentials.$inferSelect;

// ---- servers

export function insertServer(db: Tx, row: typeof servers.$inferInsert): void {
  db.insert(servers).values(row).run();
}

export function getServer(db: Tx, id: string): ServerRow | undefined {
  return db.select().from(servers).where(eq(servers.id, id)).get();
}

export function listServers(db: Tx, ownerId: string): ServerRow[] {
  return db.select().from(servers).where(eq(servers.owner_id, ownerId)).orderBy(servers.created_at, servers.id).all();
}

export function updateServer(db: Tx, id: string, patch: Partial<typeof servers.$inferInsert>): void {
  db.update(servers).set(patch).where(eq(servers.id, id)).run();
}

export function deleteServer(db: Tx, id: string): void {
  // Credentials, deployments and requests go with it (ON DELETE CASCADE); explicit for clarity.
  db.delete(serverCredentials).where(eq(serverCredentials.server_id, id)).run();
  db.delete(servers).where(eq(servers.id, id)).run();
}

/** Servers of any owner that auto-deploy the list. */
export function autoDeployServers(db: Tx, listId: string): ServerRow[] {
  return db
    .select()
    .from(servers)
    .where(and(eq(servers.linked_list_id, listId), eq(servers.auto_deploy, true)))
    .all();
}

// ---- credentials

/** Which of these servers have credentials, with the pinned SFTP host key (never the secret). */
export function credentialStates(db: Tx, serverIds: string[]): Map<string, { host_key_sha256: string | null; updated_at: number }> {
  if (serverIds.length === 0) return new Map();
  const rows = db
    .select({ id: serverCredentials.server_id, host_key_sha256: serverCredentials.host_key_sha256, updated_at: serverCredentials.updated_at })
    .from(serverCredentials)
    .where(inArray(serverCredentials.server_id, serverIds))
    .all();
  return new Map(rows.map((r) => [r.id, { host_key_sha256: r.host_key_sha256, updated_at: r.updated_at }]));
}

export function upsertCredentials(db: Tx, serverId: string, secret: string, keyId: string, now: number): void {
  db.insert(serverCredentials)
    .values({ server_id: serverId, secret, key_id: keyId, created_at: now, updated_at: now })
    // New credentials may point at a new host: the pinned host key starts over.
    .onConflictDoUpdate({ target: serverCredentials.server_id, set: { secret, key_id: keyId, host_key_sha256: null, updated_at: now } })
    .run();
}

/** Pins an SFTP host key (first successful connection only). */
export function pinHostKey(db: Tx, serverId: string, fingerprint: string): void {
  db.update(serverCredentials)
    .set({ host_key_sha256: fingerprint })
    .where(and(eq(serverCredentials.server_id, serverId), isNull(serverCredentials.host_key_sha256)))
    .run();
}

export function getCredentials(db: Tx, serverId: string): CredentialRow | undefined {
  return db.select().from(serverCredentials).where(eq(serverCredentials.server_id, serverId)).get();
}

// ---- deployments

export function insertDeployment(db: Tx, row: typeof deployments.$inferInsert): void {
  db.insert(deployments).values(row).run();
}

export function getDeployment(db: Tx, id: string): DeploymentRow | undefined {
  return db.select().from(deployments).where(eq(deployments.id, id)).get();
}

export function listDeployments(db: Tx, serverId: string, limit: number): DeploymentRow[] {
  return db
    .select()
    .from(deployments)
    .where(eq(deployments.server_id, serverId))
    .orderBy(desc(deployments.created_at), desc(deployments.id))
    .limit(limit)
    .all();
}

/** Latest connection test per server. */
export function lastTests(db: Tx, serverIds: string[]): Map<string, DeploymentRow> {
  const out = new Map<string, DeploymentRow>();
  if (serverIds.length === 0) return out;
  const rows = db
    .select()
    .from(deployments)
    .where(and(inArray(deployments.server_id, serverIds), eq(deployments.kind, "test")))
    .orderBy(desc(deployments.created_at), desc(deployments.id))
    .all();
  for (const r of rows) if (!out.has(r.server_id)) out.set(r.server_id, r);
  return out;
}

/** The server's last deploy that succeeded (what it runs, as far as Loadout knows). */
export function lastSuccessfulDeploy(db: Tx, serverId: string): DeploymentRow | undefined {
  return db
    .select()
    .from(deployments)
    .where(and(eq(deployments.server_id, serverId), eq(deployments.kind, "deploy"), eq(deployments.status, "success")))
    .orderBy(desc(deployments.finished_at), desc(deployments.id))
    .limit(1)
    .get();
}

/**
 * The live scan's entry of each server (game_servers.registered_server_id, the live feature's
 * table, read by its text: the live feature depends on this one, not the other way round).
 */
export function liveServerIds(db: Tx, serverIds: string[]): Map<string, string> {
  if (serverIds.length === 0) return new Map();
  const rows = db.all<{ registered_server_id: string; id: string }>(sql`
    SELECT registered_server_id, id FROM game_servers
    WHERE registered_server_id IN (SELECT value FROM json_each(${JSON.stringify(serverIds)}))
    ORDER BY last_seen_at`);
  // The one seen last wins (an address change leaves the old entry behind).
  return new Map(rows.map((r) => [r.registered_server_id, r.id]));
}

/** What the last connection test or deploy read (or wrote) as each server's game.mods, for the servers whose config was read. */
export function configModsOf(db: Tx): { id: string; config_mods_json: string | null }[] {
  return db
    .select({ id: servers.id, config_mods_json: servers.config_mods_json })
    .from(servers)
    .where(and(isNotNull(servers.config_read_at), isNotNull(servers.config_mods_json)))
    .all();
}

export function setDeploymentJob(db: Tx, id: string, jobId: string): void {
  db.update(deployments).set({ job_id: jobId }).where(eq(deployments.id, id)).run();
}

/** pending|running → running (a crashed run is picked up again). Returns false when already finished. */
export function markDeploymentRunning(db: Tx, id: string, now: number): boolean {
  const r = db
    .update(deployments)
    .set({ status: "running", started_at: sql`COALESCE(${deployments.started_at}, ${now})`, error_message: null })
    .where(and(eq(deployments.id, id), inArray(deployments.status, ["pending", "running"])))
    .returning({ id: deployments.id })
    .all();
  return r.length > 0;
}

export function finishDeployment(
  db: Tx,
  id: string,
  result: {
    status: "success" | "failed";
    item_count?: number | null;
    snapshot_json?: string | null;
    error_message?: string | null;
    /** More columns of the restart loop set in the same update (phase done, verified_at, ...). */
    extra?: Partial<typeof deployments.$inferInsert>;
  },
  now: number,
): boolean {
  const r = db
    .update(deployments)
    .set({
      ...result.extra,
      status: result.status,
      // What a deploy wrote stays on the entry when a later step fails.
      ...(result.item_count !== undefined ? { item_count: result.item_count } : {}),
      ...(result.snapshot_json !== undefined ? { snapshot_json: result.snapshot_json } : {}),
      error_message: result.error_message ?? null,
      finished_at: now,
    })
    .where(and(eq(deployments.id, id), eq(deployments.status, "running")))
    .returning({ id: deployments.id })
    .all();
  return r.length > 0;
}

/** Records a step of the restart loop (docs/deploy.md): the row is the loop's durable state. */
export function updateDeployment(db: Tx, id: string, patch: Partial<typeof deployments.$inferInsert>): void {
  db.update(deployments).set(patch).where(eq(deployments.id, id)).run();
}

export function requestRestartNow(db: Tx, id: string, now: number): void {
  db.update(deployments)
    .set({ restart_now_requested_at: now })
    .where(and(eq(deployments.id, id), isNull(deployments.restart_now_requested_at)))
    .run();
}

/** A deploy of this server, other than `id`, that started and has not finished (the one-at-a-time rule). */
export function activeDeployBefore(db: Tx, serverId: string, id: string): DeploymentRow | undefined {
  return db
    .select()
    .from(deployments)
    .where(
      and(
        eq(deployments.server_id, serverId),
        eq(deployments.kind, "deploy"),
        eq(deployments.status, "running"),
        sql`${deployments.id} <> ${id}`,
      ),
    )
    .get();
}

// ---- list data used by deploys

export interface DeployModRow {
  workshop_id: string;
  name: string;
  pinned_version: string | null;
  /** The stated per-mod `required` (1, 0), null when the list's default applies. */
  required: number | null;
}

/** The list's mods in manual order; the catalog's name wins when known. */
export function listModsForDeploy(db: Tx, listId: string): DeployModRow[] {
  return db.all<DeployModRow>(sql`
    SELECT li.workshop_id AS workshop_id,
           COALESCE(NULLIF(m.name, ''), NULLIF(li.name, ''), li.workshop_id) AS name,
           li.pinned_version AS pinned_version,
           li.required AS required
    FROM list_items li
    LEFT JOIN mods m ON m.workshop_id = li.workshop_id
    WHERE li.list_id = ${listId}
    ORDER BY li.position, li.added_at, li.workshop_id`);
}

export function listName(db: Tx, listId: string): string | null {
  return db.select({ name: lists.name }).from(lists).where(eq(lists.id, listId)).get()?.name ?? null;
}

export function setRequireDeployApproval(db: Tx, listId: string, value: boolean, now: number): void {
  db.update(lists).set({ require_deploy_approval: value, updated_at: now }).where(eq(lists.id, listId)).run();
}

// ---- deploy requests

export function insertRequest(db: Tx, row: typeof deployRequests.$inferInsert): void {
  db.insert(deployRequests).values(row).run();
}

export type DeployRequestDetail = DeployRequestRow & { server_name: string; requested_by_name: string | null };

const requestDetailColumns = {
  id: deployRequests.id,
  server_id: deployRequests.server_id,
  list_id: deployRequests.list_id,
  requested_by: deployRequests.requested_by,
  status: deployRequests.status,
  note: deployRequests.note,
  decided_by: deployRequests.decided_by,
  decided_at: deployRequests.decided_at,
  deployment_id: deployRequests.deployment_id,
  created_at: deployRequests.created_at,
  server_name: servers.name,
  requested_by_name: users.display_name,
};

export function getRequest(db: Tx, id: string): DeployRequestDetail | undefined {
  return db
    .select(requestDetailColumns)
    .from(deployRequests)
    .innerJoin(servers, eq(servers.id, deployRequests.server_id))
    .leftJoin(users, eq(users.id, deployRequests.requested_by))
    .where(eq(deployRequests.id, id))
    .get();
}

/** Pending first, then resolved; newest first within each. */
export function listRequests(db: Tx, listId: string): DeployRequestDetail[] {
  return requestsWhere(db, eq(deployRequests.list_id, listId));
}

/** The requests submitted for one server (its owner, the requester, follows them). */
export function listServerRequests(db: Tx, serverId: string): DeployRequestDetail[] {
  return requestsWhere(db, eq(deployRequests.server_id, serverId));
}

function requestsWhere(db: Tx, where: ReturnType<typeof eq>): DeployRequestDetail[] {
  return db
    .select(requestDetailColumns)
    .from(deployRequests)
    .innerJoin(servers, eq(servers.id, deployRequests.server_id))
    .leftJoin(users, eq(users.id, deployRequests.requested_by))
    .where(where)
    .orderBy(sql`CASE ${deployRequests.status} WHEN 'pending' THEN 0 ELSE 1 END`, desc(deployRequests.created_at), desc(deployRequests.id))
    .limit(500)
    .all();
}

export function pendingRequestFor(db: Tx, serverId: string, listId: string): DeployRequestRow | undefined {
  return db
    .select()
    .from(deployRequests)
    .where(and(eq(deployRequests.server_id, serverId), eq(deployRequests.list_id, listId), eq(deployRequests.status, "pending")))
    .get();
}

/** pending → approved|rejected; false when the request was no longer pending. */
export function decideRequest(
  db: Tx,
  id: string,
  decision: { status: "approved" | "rejected"; note: string | null; decided_by: string; deployment_id: string | null },
  now: number,
): boolean {
  const r = db
    .update(deployRequests)
    .set({ ...decision, decided_at: now })
    .where(and(eq(deployRequests.id, id), eq(deployRequests.status, "pending")))
    .returning({ id: deployRequests.id })
    .all();
  return r.length > 0;
}
