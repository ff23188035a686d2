import { useDeferredValue, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { count } from "../../app/format";
import { ConfirmButton, ErrorMessage, Field, Notice } from "../../ui/components";
import { findLiveServers, type LiveServer } from "../../live/live.services";
import { copyFromServer, type ListDetail } from "../lists.services";

/**
 * Copy a live server's mods: over this list (one import in the history, so it can be undone),
 * or, without a list, into a new private list named after the server.
 */
export function CopyFromServer({ list, onDone }: { list?: ListDetail; onDone: (listId: string) => void }) {
  const [q, setQ] = useState("");
  const search = useDeferredValue(q.trim());
  const found = useQuery({ queryKey: ["live-find", search], queryFn: ({ signal }) => findLiveServers(search, signal), enabled: search.length >= 2 });
  const copy = useMutation({
    mutationFn: (s: LiveServer) => copyFromServer(s.id, list ? { list_id: list.id } : { list_name: s.name.slice(0, 100), is_public: false }).then((r) => ({ server: s, list_id: r.list_id })),
    onSuccess: (r) => onDone(r.list_id),
  });
  return (
    <section className="card stack" aria-labelledby="copy-h">
      <h2 id="copy-h" style={{ marginTop: 0 }}>
        {list ? "Copy a live server's mods" : "Start a list from a live server"}
      </h2>
      <p className="muted">
        {list
          ? "Find a server that is online now; its mods replace this list's (one change in the history, which you can undo)."
          : "Find a server that is online now; a new private list gets its mods, in its order."}
      </p>
      <Field label="Server name" type="search" value={q} onChange={(e) => setQ(e.target.value)} hint="At least two letters." />
      {found.data && found.data.length === 0 && <p className="muted">No online server matches.</p>}
      {found.data && found.data.length > 0 && (
        <ul className="plain">
          {found.data.map((s) => (
            <li key={s.id} className="row" style={{ alignItems: "center" }}>
              <span style={{ flex: 1 }}>
                {s.name}{" "}
                <span className="muted small">
                  {s.player_count}/{s.player_count_limit} players · {count(s.mods_count, "mod")}
                </span>
              </span>
              {list ? (
                <ConfirmButton question={`Replace this list's mods with the ${count(s.mods_count, "mod")} of ${s.name}?`} label={`Copy the mods of ${s.name}`} onConfirm={() => copy.mutate(s)} disabled={copy.isPending}>
                  Copy its mods
                </ConfirmButton>
              ) : (
                <button type="button" className="btn secondary" aria-label={`New list from the mods of ${s.name}`} onClick={() => copy.mutate(s)} disabled={copy.isPending}>
                  New list from its mods
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {copy.isSuccess && list && <Notice kind="ok">Copied the mods of {copy.data.server.name}.</Notice>}
      <ErrorMessage error={copy.error ?? found.error} />
    </section>
  );
}
