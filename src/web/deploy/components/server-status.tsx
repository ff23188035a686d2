// What a server's page opens with (GET /servers/:id/status, asked again every 30 s): whether the
// game server answers and who is on, the list Loadout deployed and when, where players connect
// (with a copy button), and its page in Live. And the way back: on a live server's page that is
// one of the caller's servers, a link to it (MyServerLink).
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { count, num } from "../../app/format";
import { useSession } from "../../app/session";
import { ErrorMessage, Skeleton } from "../../ui/components";
import { Time } from "../../ui/time";
import { servers } from "../my-servers.services";
import { serverQueries } from "../server.queries";

/** Copies `text`, and says so (or says it could not) where the button is. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState<"" | "copied" | "failed">("");
  return (
    <>
      <button
        type="button"
        className="btn secondary small-btn"
        aria-label={`Copy ${what}`}
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setSaid("copied"),
            () => setSaid("failed"),
          )
        }
      >
        Copy
      </button>
      <span className="muted small" role="status">
        {said === "copied" ? "Copied." : said === "failed" ? "Could not copy: select it and copy by hand." : ""}
      </span>
    </>
  );
}

export function ServerStatusHeader({ serverId, owner }: { serverId: string; owner: boolean }) {
  const status = useQuery(serverQueries.status(serverId));
  if (status.isLoading) return <Skeleton lines={2} label="Asking the server" />;
  if (status.error) return <ErrorMessage error={status.error} retry={() => status.refetch()} />;
  const s = status.data!;
  const state = s.reachable === true ? "up" : s.reachable === false ? "down" : "unknown";
  const players =
    s.players === null ? null : `${num(s.players)}${s.max_players !== null ? ` of ${num(s.max_players)}` : ""} ${s.players === 1 && s.max_players === null ? "player" : "players"} on`;
  const address = s.address ?? s.query_address;
  return (
    <section className="card server-status" aria-label="Status of this server">
      <p className="status-line">
        <span className={`state-pill ${state}`}>
          <span aria-hidden="true">{state === "up" ? "● " : state === "down" ? "✕ " : "? "}</span>
          {state === "up" ? "Reachable" : state === "down" ? "Not reachable" : "Not known"}
        </span>
        {players && (
          <span>
            {players}
            <span className="muted small"> ({s.players_from === "rcon" ? "RCON" : "A2S"})</span>
          </span>
        )}
        {s.game_version && <span className="muted">game {s.game_version}</span>}
        <span className="muted small">
          asked <Time iso={s.checked_at} />
        </span>
      </p>
      {s.note && <p className="muted small flush">{s.reachable === false ? `Not reachable: ${s.note}.` : `${s.note[0]!.toUpperCase()}${s.note.slice(1)}.`}</p>}
      <dl className="facts">
        {owner && (
          <div>
            <dt>Running</dt>
            <dd>
              {s.deployed ? (
                <>
                  {s.deployed.list_id ? (
                    <Link to="/lists/$id" params={{ id: s.deployed.list_id }} search={{}}>
                      {s.deployed.list_name ?? "the list"}
                    </Link>
                  ) : (
                    "a list since deleted"
                  )}
                  {s.deployed.mod_count !== null ? `, ${count(s.deployed.mod_count, "mod")}` : ""}, deployed <Time iso={s.deployed.finished_at} />
                </>
              ) : (
                <span className="muted">nothing deployed by Loadout yet</span>
              )}
            </dd>
          </div>
        )}
        <div>
          <dt>{s.address ? "Address" : "Query address"}</dt>
          <dd className="address">
            {address ? (
              <>
                <code>{address}</code> <CopyButton text={address} what={s.address ? "the address" : "the query address"} />
              </>
            ) : (
              <span className="muted">not known</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Live</dt>
          <dd>
            {s.live_server_id ? (
              <Link to="/live/$id" params={{ id: s.live_server_id }} search={{}}>
                Its live page: players over time, mods, changes
              </Link>
            ) : (
              <span className="muted">{s.query_address ? "not seen by a live scan yet (the next one asks it)" : "not in Live: a live scan asks a server at its query address"}</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** On a live server's page: when it is one of the caller's servers, the way to its own page. */
export function MyServerLink({ liveId }: { liveId: string }) {
  const { token } = useSession();
  const mine = useQuery({ queryKey: ["servers"], queryFn: ({ signal }) => servers(signal), enabled: !!token });
  const srv = mine.data?.find((s) => s.live_server_id === liveId);
  if (!srv) return null;
  return (
    <p className="alert info flush">
      This is your server <strong>{srv.name}</strong>:{" "}
      <Link to="/my-servers/$id" params={{ id: srv.id }}>
        open it in My servers
      </Link>{" "}
      to deploy, test and see who is on.
    </p>
  );
}
