// The deploy loop on the server page (docs/deploy.md): a deploy that restarts its server shows its
// phases as they happen (writing, waiting for an empty server, restarting, verifying, rolling
// back), how long the current one has waited, "Restart now instead" while it waits for players
// to leave, and a rollback with its error. Plus the restart settings fields.
import { useEffect, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { count, dateTime } from "../app/format";
import { ErrorMessage, Field, Notice, SelectField } from "../ui/components";
import { restartNow, type Deployment, type RestartMode, type Server } from "./my-servers.services";

export const RESTART_LABELS: Record<RestartMode, string> = {
  none: "Don't restart (the mods load at the next restart)",
  now: "Restart right away",
  when_empty: "Restart when the server is empty",
};

/** "4 min 10 s", "45 s", "1 h 2 min" */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ""}`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ""}`;
}

/** The current time, ticking every second while `on` (for "has waited …"). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

type Step = { key: string; label: string };

function stepsOf(d: Deployment): Step[] {
  const steps: Step[] = [
    { key: "pending", label: "Queued" },
    { key: "writing", label: "Writing the config" },
  ];
  if (d.restart === "when_empty") steps.push({ key: "waiting_for_empty", label: "Waiting for an empty server" });
  steps.push({ key: "restarting", label: "Restarting" }, { key: "verifying", label: "Verifying" });
  if (d.rolled_back || d.phase === "rolling_back") steps.push({ key: "rolling_back", label: "Rolling back" });
  const end = d.status === "success" ? "Verified" : d.status === "failed" ? (d.rolled_back ? "Rolled back" : "Failed") : "Verified";
  steps.push({ key: "done", label: end });
  return steps;
}

/** Where a deploy with a restart stands: its phases, what it waits for and for how long. */
export function RestartProgress({ d, serverId }: { d: Deployment; serverId: string }) {
  const active = d.status === "pending" || d.status === "running";
  const now = useNow(active);
  const qc = useQueryClient();
  const cut = useMutation({
    mutationFn: () => restartNow(serverId, d.id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["deployments", serverId] }),
  });
  const steps = stepsOf(d);
  const key = d.status === "pending" ? "pending" : (d.phase ?? "writing");
  const at = steps.findIndex((s) => s.key === key);
  const waited = d.phase_started_at ? duration(now - Date.parse(d.phase_started_at)) : null;
  return (
    <div className="stack">
      <ol className="steps" aria-label="Deployment progress">
        {steps.map((s, i) => (
          <li key={s.key} className={i < at || (i === at && !active) ? "done" : i === at ? "current" : ""} aria-current={i === at && active ? "step" : undefined}>
            {s.label}
          </li>
        ))}
      </ol>
      {d.phase === "waiting_for_empty" && active && (
        <div className="alert info row" role="status">
          <span>
            Waiting for the server to empty{d.verify_note ? `: ${d.verify_note}` : ""}. Waited {waited}
            {d.wait_until ? `; restarts anyway at ${dateTime(d.wait_until)}` : ""}.
          </span>
          <button type="button" className="btn secondary" onClick={() => cut.mutate()} disabled={cut.isPending}>
            Restart now instead
          </button>
        </div>
      )}
      {d.phase === "restarting" && active && <Notice>Restarting the server{d.verify_note ? ` (${d.verify_note})` : ""}…</Notice>}
      {d.phase === "verifying" && active && (
        <Notice>
          Restarted {d.restarted_at ? `at ${dateTime(d.restarted_at)}` : ""}. Waiting for it to answer: {waited}
          {d.verify_note ? ` (${d.verify_note})` : ""}; it is rolled back if it does not answer in time.
        </Notice>
      )}
      {d.phase === "rolling_back" && active && (
        <Notice kind="warn">
          The server did not come back in time: putting the previous config back and restarting it. Waited {waited}
          {d.verify_note ? ` (${d.verify_note})` : ""}.
        </Notice>
      )}
      <ErrorMessage error={cut.error} />
      {d.status === "success" && (
        <Notice kind="ok">
          Deployed {count(d.item_count ?? 0, "mod")}
          {d.restarted_at ? `; the server restarted at ${dateTime(d.restarted_at)}` : ""}
          {d.verified_at ? ` and answered again at ${dateTime(d.verified_at)} (verified)` : ""}
          {d.wait_ended === "timeout" ? ". Players were still on when the wait ran out; it restarted anyway" : ""}.
        </Notice>
      )}
      {d.status === "failed" && (
        <div className="alert error" role="alert">
          <strong>{d.rolled_back ? "Rolled back:" : "Failed:"}</strong> {d.error_message ?? "failed"}
        </div>
      )}
      {d.restart_output !== null && (
        <details>
          <summary>
            Restart command output (exit status {d.restart_exit_status ?? "none"})
          </summary>
          <pre className="mono small break-anywhere">{d.restart_output || "(no output)"}</pre>
        </details>
      )}
      {d.previous_config !== null && (
        <details>
          <summary>The previous config (to restore by hand)</summary>
          <pre className="mono small break-anywhere">{d.previous_config}</pre>
        </details>
      )}
      {d.new_config !== null && (
        <details>
          <summary>The config this deploy wrote</summary>
          <pre className="mono small break-anywhere">{d.new_config}</pre>
        </details>
      )}
    </div>
  );
}

/** One line of the history for a deploy with a restart. */
export function restartResult(d: Deployment): string | null {
  if (d.restart === "none" || d.kind !== "deploy") return null;
  if (d.status === "success") return d.verified_at ? `restarted, verified ${dateTime(d.verified_at)}` : "restarted";
  if (d.status === "running" && d.phase) return d.phase.replace(/_/g, " ");
  return null;
}

export type RestartSettings = Pick<Server, "restart" | "empty_wait_s" | "verify_timeout_s" | "restart_command" | "query_address">;

/** The restart fields of the settings form. */
export function RestartFields({ type, value, onChange }: { type: Server["connection_type"]; value: RestartSettings; onChange: (v: RestartSettings) => void }) {
  return (
    <>
      <SelectField label="After a deploy" value={value.restart} onChange={(e) => onChange({ ...value, restart: e.target.value as RestartMode })}>
        {(Object.keys(RESTART_LABELS) as RestartMode[]).map((m) => (
          <option key={m} value={m}>
            {RESTART_LABELS[m]}
          </option>
        ))}
      </SelectField>
      {value.restart === "when_empty" && (
        <Field
          label="Longest wait for an empty server (seconds)"
          type="number"
          min={0}
          max={86400}
          value={value.empty_wait_s}
          onChange={(e) => onChange({ ...value, empty_wait_s: Number(e.target.value) })}
          hint="Then it restarts anyway and says so."
        />
      )}
      <Field
        label="Time to come back (seconds)"
        type="number"
        min={10}
        max={3600}
        value={value.verify_timeout_s}
        onChange={(e) => onChange({ ...value, verify_timeout_s: Number(e.target.value) })}
        hint="Not answering by then: the previous config is put back."
      />
      <Field
        label="Query address"
        value={value.query_address ?? ""}
        placeholder={type === "sftp" ? "the SFTP host, port 17777" : "host:17777"}
        onChange={(e) => onChange({ ...value, query_address: e.target.value.trim() === "" ? null : e.target.value })}
        hint="Where the server answers A2S queries (player count, and the check after a restart)."
      />
      {type === "sftp" && (
        <Field
          label="Restart command"
          value={value.restart_command ?? ""}
          placeholder="systemctl restart reforger"
          onChange={(e) => onChange({ ...value, restart_command: e.target.value === "" ? null : e.target.value })}
          hint="Run over SSH exactly as written."
        />
      )}
    </>
  );
}
