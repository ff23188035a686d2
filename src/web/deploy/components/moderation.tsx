// Acting on a player (the Players tab and a player's page): the kick and ban dialogs, and how the
// pages say a ban's duration, scope and a time on the server in words. The API checks the reason
// and the duration; its {error} shows in the dialog.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorMessage, Field } from "../../ui/components";
import { Dialog } from "../../ui/dialog";
import { ban, kick, type Ban, type NewBan } from "../players.services";
import type { Server } from "../my-servers.services";
import { invalidateModeration, serverQueries } from "../server.queries";
import { useSession } from "../../app/session";

/**
 * The caller's role on a server: its owner (GET /servers/:id answers, with the server's view) or a
 * moderator (that answers 404 to them; GET /servers/moderated names the server), else an error.
 */
export function useServerRole(id: string): {
  role: "owner" | "moderator" | null;
  name: string | null;
  server: Server | null;
  loading: boolean;
  error: unknown;
  retry: () => void;
} {
  const { token } = useSession();
  const own = useQuery({ ...serverQueries.server(id), enabled: !!token });
  const notOwn = !!own.error;
  const moderated = useQuery({ ...serverQueries.moderated(), enabled: !!token && notOwn });
  const retry = () => void (notOwn ? moderated.refetch() : own.refetch());
  if (own.data) return { role: "owner", name: own.data.name, server: own.data, loading: false, error: null, retry };
  const mine = moderated.data?.find((s) => s.id === id);
  if (mine) return { role: "moderator", name: mine.name, server: null, loading: false, error: null, retry };
  const loading = own.isLoading || (notOwn && moderated.isLoading);
  // Not theirs and not moderated: the server's own 404 ("server not found").
  return { role: null, name: null, server: null, loading, error: loading ? null : (moderated.error ?? own.error), retry };
}

/** "42 s", "17 min", "3 h 5 min", "2 d 4 h": how long someone was on. */
export function timeOn(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** A ban's length as the API's chat text says it: "permanent", "1 day", "3 hours", "90 seconds". */
export function banLength(seconds: number): string {
  if (seconds === 0) return "permanent";
  for (const [n, w] of [
    [604_800, "week"],
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ] as const)
    if (seconds % n === 0) return `${seconds / n} ${w}${seconds / n === 1 ? "" : "s"}`;
  return `${seconds} seconds`;
}

export const scopeWords = (b: Pick<Ban, "scope" | "server_ids">) => (b.scope === "all" ? `all the owner's servers (${b.server_ids.length})` : "this server");

const DURATIONS = [
  { id: "hour", label: "1 hour", seconds: 3_600 },
  { id: "day", label: "1 day", seconds: 86_400 },
  { id: "week", label: "1 week", seconds: 604_800 },
  { id: "permanent", label: "Permanent", seconds: 0 },
  { id: "custom", label: "Custom", seconds: null },
] as const;
type DurationId = (typeof DURATIONS)[number]["id"];

/** Who the dialog acts on: a player on the roster (by their number) or one by uid (offline). */
export interface Target {
  name: string;
  player_id?: number;
  uid?: string;
}

/** Kick: "Kick Griefer?" with an optional reason (kept in the log; the game takes none). */
export function KickDialog({ serverId, target, onClose, onDone }: { serverId: string; target: Target; onClose: () => void; onDone: (message: string) => void }) {
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const act = useMutation({
    mutationFn: () => kick(serverId, target.player_id!, reason),
    onSuccess: () => {
      invalidateModeration(qc, serverId);
      onDone(`${target.name} was kicked.`);
    },
  });
  return (
    <Dialog title={`Kick ${target.name}?`} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          act.mutate();
        }}
      >
        <p className="muted">They leave the server now and may join again.</p>
        <Field label="Reason (kept in the moderation log)" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        <ErrorMessage error={act.error} />
        <div className="row dialog-actions">
          <button type="submit" className="btn danger" disabled={act.isPending}>
            Kick
          </button>
          <button type="button" className="btn secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Ban: reason, how long (1 hour, 1 day, 1 week, permanent, custom seconds) and, for owners, where. */
export function BanDialog({
  serverId,
  target,
  owner,
  onClose,
  onDone,
}: {
  serverId: string;
  target: Target;
  /** The owner may ban on all their servers with RCON at once. */
  owner: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const [duration, setDuration] = useState<DurationId>("day");
  const [custom, setCustom] = useState("");
  const [scope, setScope] = useState<"server" | "all">("server");
  // An empty custom field is sent as null (the API says what it needs), never as 0, which is permanent.
  const seconds = DURATIONS.find((d) => d.id === duration)!.seconds ?? (custom.trim() === "" ? Number.NaN : Number(custom));
  const act = useMutation({
    mutationFn: () => {
      const body: NewBan = { duration_s: seconds, reason, ...(owner ? { scope } : {}) };
      return ban(serverId, target.player_id !== undefined ? { ...body, player_id: target.player_id } : { ...body, uid: target.uid });
    },
    onSuccess: (b) => {
      invalidateModeration(qc, serverId);
      onDone(`${b.name} is banned${b.duration_s === 0 ? " for good" : ` for ${banLength(b.duration_s)}`} on ${scopeWords(b)}.`);
    },
  });
  return (
    <Dialog title={`Ban ${target.name}`} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          act.mutate();
        }}
      >
        <Field label="Reason" hint="Kept with the ban, here and on the game server." maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        <fieldset className="choices">
          <legend>How long</legend>
          {DURATIONS.map((d) => (
            <label key={d.id} className="check">
              <input type="radio" name="ban-duration" value={d.id} checked={duration === d.id} onChange={() => setDuration(d.id)} />
              {d.label}
            </label>
          ))}
          {duration === "custom" && <Field label="Seconds" type="number" min={1} step={1} inputMode="numeric" value={custom} onChange={(e) => setCustom(e.target.value)} />}
        </fieldset>
        {owner && (
          <fieldset className="choices">
            <legend>Where</legend>
            <label className="check">
              <input type="radio" name="ban-scope" value="server" checked={scope === "server"} onChange={() => setScope("server")} />
              This server
            </label>
            <label className="check">
              <input type="radio" name="ban-scope" value="all" checked={scope === "all"} onChange={() => setScope("all")} />
              All my servers (every one with RCON)
            </label>
          </fieldset>
        )}
        <ErrorMessage error={act.error} />
        <div className="row dialog-actions">
          <button type="submit" className="btn danger" disabled={act.isPending}>
            {act.isPending ? "Banning…" : "Ban"}
          </button>
          <button type="button" className="btn secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
