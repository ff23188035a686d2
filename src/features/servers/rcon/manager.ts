// One RCON connection per own server that has RCON settings (docs/rcon.md "Who is on"), held by
// the servers feature while the service runs (started and stopped with it): each session logs in,
// reconnects with backoff, and its roster is read every LOADOUT_RCON_POLL_S into server_players,
// player_sessions and player_names. A connection down for two polls, outside a deploy's own
// restart, is the event server.rcon_lost; the first poll that finds it back, server.rcon_restored.
import type { Deps } from "../../../deps";
import { recordEvent } from "../../../outbox/outbox";
import { decryptSecret } from "../../../shared/crypto";
import type { RconClient } from "../../../protocols/rcon/client";
import { RconSession, type RconStatus } from "../../../protocols/rcon/session";
import { players as readPlayers, type RconCommander } from "../../../protocols/rcon/reforger";
import * as repo from "../repository";
import * as rosterRepo from "./repository";

/** Additional authenticated data of a server's sealed RCON password. */
export const rconAad = (serverId: string) => `server-rcon:${serverId}`;

export interface RconState {
  host: string;
  port: number;
  status: RconStatus;
  error: string | null;
  connected_at: number | null;
  last_seen_at: number | null;
}

interface Entry {
  session: RconSession;
  host: string;
  port: number;
  /** Polls in a row that found the connection down. */
  downPolls: number;
  /** server.rcon_lost was recorded and not yet answered by server.rcon_restored. */
  lost: boolean;
  /** The poll under way: a poll asked meanwhile runs after it (never two at once). */
  polling: Promise<void> | null;
  /** What the last (re)connection runs (its roster, its hooks), settled when done. */
  ready: Promise<void> | null;
}

/** What a (re)connection runs, besides reading the roster: moderation re-applies bans there. */
export type ConnectedHook = (serverId: string, rcon: RconCommander) => Promise<void>;
/** What runs after each roster read: moderation kicks a banned player who shows up. */
/** A hook after a roster read; `askedAt` is when the roster was asked for (what happened after may not show in it). */
export type RosterHook = (serverId: string, rcon: RconCommander, roster: { joined: rosterRepo.RosterPlayer[]; askedAt: number }) => Promise<void>;

/** The settings of a server's RCON, the password opened. */
export function rconSettings(deps: Pick<Deps, "secrets">, server: repo.ServerRow): { host: string; port: number; password: string } | null {
  if (!server.rcon_host || !server.rcon_port || !server.rcon_password) return null;
  return { host: server.rcon_host, port: server.rcon_port, password: decryptSecret(server.rcon_password, deps.secrets.credentialKey, rconAad(server.id)) };
}

export class RconManager {
  private readonly entries = new Map<string, Entry>();
  private readonly hooks: ConnectedHook[] = [];
  private readonly rosterHooks: RosterHook[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private running = false;

  constructor(
    private readonly deps: Deps,
    /** Client timings (tests shorten them). */
    private readonly timings: { backoffInitialMs?: number; keepaliveMs?: number; replyTimeoutMs?: number; loginTimeoutMs?: number } = {},
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Adds a hook run after every (re)connection of any server. */
  onConnected(hook: ConnectedHook): void {
    this.hooks.push(hook);
  }

  /** Adds a hook run after every roster read of any server. */
  onRoster(hook: RosterHook): void {
    this.rosterHooks.push(hook);
  }

  /** Opens a connection to every server with RCON and polls their rosters on the schedule. */
  start(opts: { pollMs?: number } = {}): void {
    if (this.running) return;
    this.running = true;
    for (const { id } of rosterRepo.serversWithRcon(this.deps.sqlite)) this.open(id);
    const every = opts.pollMs ?? this.deps.config.LOADOUT_RCON_POLL_S * 1000;
    this.timer = setInterval(() => void this.pollAll(), every);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.session.stop()));
  }

  /** The server's RCON settings changed (or were removed): its connection is opened again (or closed). */
  async refresh(serverId: string): Promise<void> {
    const old = this.entries.get(serverId);
    if (old) {
      this.entries.delete(serverId);
      await old.session.stop();
    }
    if (this.running) this.open(serverId);
  }

  /** What the server view shows; null when the server has no RCON settings. */
  state(server: repo.ServerRow): RconState | null {
    if (!server.rcon_host || !server.rcon_port) return null;
    const e = this.entries.get(server.id);
    if (!e) return { host: server.rcon_host, port: server.rcon_port, status: "connecting", error: this.running ? null : "the service's RCON connections are not running", connected_at: null, last_seen_at: null };
    return {
      host: e.host,
      port: e.port,
      status: e.session.status,
      error: e.session.error,
      connected_at: e.session.connectedAt,
      last_seen_at: e.session.lastSeenAt,
    };
  }

  /** Resolves once the server is connected and what its connection runs (roster, bans re-applied) is done. */
  async whenReady(serverId: string): Promise<void> {
    const e = this.entries.get(serverId);
    if (!e) return;
    while (!e.ready) await new Promise((r) => setTimeout(r, 5));
    await e.ready;
  }

  /** The server's logged-in connection, or null. */
  commander(serverId: string): RconCommander | null {
    const e = this.entries.get(serverId);
    return e?.session.client ? e.session : null;
  }

  /** Reads every connected server's roster (and notes the ones down). */
  async pollAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.poll(id)));
  }

  /**
   * One poll of one server: its roster when connected (applied in one transaction), else one more
   * poll down (the second records server.rcon_lost, unless a deploy of this server is restarting it).
   */
  async poll(serverId: string): Promise<void> {
    const e = this.entries.get(serverId);
    if (!e) return;
    const run = (e.polling ?? Promise.resolve()).then(() => this.pollOnce(serverId, e));
    e.polling = run;
    try {
      await run;
    } finally {
      if (e.polling === run) e.polling = null;
    }
  }

  private async pollOnce(serverId: string, e: Entry): Promise<void> {
    if (this.entries.get(serverId) !== e) return; // replaced or removed meanwhile
    if (!e.session.client) return this.down(serverId, e);
    let list;
    const askedAt = this.deps.clock.now();
    try {
      list = await readPlayers(e.session);
    } catch (err) {
      this.deps.log.debug("rcon: reading the roster failed", { server_id: serverId, error: String(err) });
      return this.down(serverId, e);
    }
    if (this.entries.get(serverId) !== e) return;
    const change = rosterRepo.applyRoster(this.deps.sqlite, serverId, list, this.deps.clock.now());
    this.up(serverId, e);
    for (const hook of this.rosterHooks) {
      try {
        await hook(serverId, e.session, { ...change, askedAt });
      } catch (err) {
        this.deps.log.warn("rcon: a hook after the roster failed", { server_id: serverId, error: String(err) });
      }
    }
  }

  private open(serverId: string): void {
    const server = repo.getServer(this.deps.db, serverId);
    if (!server) return;
    let settings;
    try {
      settings = rconSettings(this.deps, server);
    } catch (err) {
      this.deps.log.warn("rcon: the stored password cannot be opened", { server_id: serverId, error: String(err) });
      return;
    }
    if (!settings) return;
    const session = new RconSession({
      ...settings,
      ...this.timings,
      now: () => this.deps.clock.now(),
      onConnected: (client: RconClient) => {
        const e = this.entries.get(serverId);
        const run = this.connected(serverId, client);
        if (e) e.ready = run.catch(() => {});
        return run;
      },
      onHookError: (err) => this.deps.log.warn("rcon: a hook after connecting failed", { server_id: serverId, error: String(err) }),
    });
    this.entries.set(serverId, { session, host: settings.host, port: settings.port, downPolls: 0, lost: false, polling: null, ready: null });
    session.start();
  }

  private async connected(serverId: string, _client: RconClient): Promise<void> {
    const e = this.entries.get(serverId);
    if (!e) return;
    // The roster at once, then whatever else a connection is for (bans re-applied).
    await this.poll(serverId);
    for (const hook of this.hooks) await hook(serverId, e.session);
  }

  private down(serverId: string, e: Entry): void {
    e.downPolls++;
    if (e.lost || e.downPolls < 2) return;
    if (rosterRepo.deployRestarting(this.deps.sqlite, serverId)) return;
    e.lost = true;
    this.serverEvent(serverId, "server.rcon_lost", { error: e.session.error ?? "no answer", host: e.host, port: e.port });
  }

  private up(serverId: string, e: Entry): void {
    e.downPolls = 0;
    if (!e.lost) return;
    e.lost = false;
    this.serverEvent(serverId, "server.rcon_restored", { host: e.host, port: e.port });
  }

  private serverEvent(serverId: string, kind: "server.rcon_lost" | "server.rcon_restored", data: Record<string, unknown>): void {
    const server = repo.getServer(this.deps.db, serverId);
    if (!server) return;
    const at = this.deps.clock.now();
    this.deps.db.transaction(
      (tx) =>
        void recordEvent(tx, {
          kind,
          listId: null,
          actorId: null,
          at,
          data: { server_id: server.id, server_name: server.name, notify: [server.owner_id], ...data },
        }),
      { behavior: "immediate" },
    );
  }
}

const managers = new WeakMap<Deps, RconManager>();

/**
 * The service's RCON connections (one manager per running service, created on first use; tests
 * may give shorter client timings on that first use).
 */
export function rconManager(deps: Deps, timings?: ConstructorParameters<typeof RconManager>[1]): RconManager {
  let m = managers.get(deps);
  if (!m) managers.set(deps, (m = new RconManager(deps, timings)));
  return m;
}
