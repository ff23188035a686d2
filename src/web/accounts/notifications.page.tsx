// The inbox: unread first, mark one or all read, each linking to what it is about; and which
// kinds of event notify you at all.
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, get } from "../app/api";
import { dateTime } from "../app/format";
import { useSession } from "../app/session";
import { Empty, ErrorMessage, SignInFirst, Skeleton } from "../ui/components";
import { EVENT_LABELS } from "./components/event-labels";

/** Where a notification leads: the server of a deployment, the list of anything else. */
function About({ n }: { n: Notification }) {
  const serverId = typeof n.data.server_id === "string" ? n.data.server_id : null;
  if (serverId && n.event.startsWith("deployment"))
    return (
      <Link to="/my-servers/$id" params={{ id: serverId }}>
        Open the server
      </Link>
    );
  if (n.list_id)
    return (
      <Link to="/lists/$id" params={{ id: n.list_id }} search={n.event.startsWith("suggestion") ? { tab: "suggestions" } : n.event === "deploy_requested" ? { tab: "settings" } : {}}>
        Open the list
      </Link>
    );
  return null;
}

function Preferences() {
  const prefs = useQuery({ queryKey: ["notification-prefs"], queryFn: ({ signal }) => get<{ events: Record<string, boolean> }>("/settings/notifications", signal) });
  // The boxes follow the clicks at once; a refused save puts the box back.
  const [local, setLocal] = useState<Record<string, boolean>>({});
  const shown = { ...prefs.data?.events, ...local };
  const save = useMutation({
    mutationFn: (events: Record<string, boolean>) => api<{ events: Record<string, boolean> }>("PUT", "/settings/notifications", { body: { events } }),
    onMutate: (events) => setLocal((l) => ({ ...l, ...events })),
    onError: (_e, events) => setLocal((l) => Object.fromEntries(Object.entries(l).filter(([k]) => !(k in events)))),
  });
  return (
    <section className="card stack" aria-labelledby="prefs-h">
      <h2 id="prefs-h" style={{ marginTop: 0 }}>
        Notify me when
      </h2>
      <ErrorMessage error={prefs.error ?? save.error} />
      {prefs.data && (
        <div className="grid" style={{ gap: "0.25rem 1rem" }}>
          {Object.keys(EVENT_LABELS)
            .filter((k) => k in shown)
            .map((k) => (
              <label key={k} className="check">
                <input type="checkbox" checked={!!shown[k]} onChange={(e) => save.mutate({ [k]: e.target.checked })} style={{ minHeight: 0 }} />
                {EVENT_LABELS[k]}
              </label>
            ))}
        </div>
      )}
    </section>
  );
}

interface Notification {
  id: string;
  event: string;
  title: string;
  body: string;
  list_id: string | null;
  data: Record<string, unknown>;
  read: boolean;
  created_at: string;
}

export function NotificationsPage() {
  const { token } = useSession();
  const qc = useQueryClient();
  const inbox = useQuery({ queryKey: ["notifications"], queryFn: ({ signal }) => get<Notification[]>("/notifications?limit=100", signal), enabled: !!token });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["notifications"] });
    void qc.invalidateQueries({ queryKey: ["unread-count"] });
  };
  const readOne = useMutation({ mutationFn: (id: string) => api<void>("PATCH", `/notifications/${id}/read`), onSuccess: refresh });
  const readAll = useMutation({ mutationFn: () => api<void>("POST", "/notifications/read-all"), onSuccess: refresh });
  if (!token) return <SignInFirst next="/notifications" what="your notifications" />;
  const items = [...(inbox.data ?? [])].sort((a, b) => Number(a.read) - Number(b.read));
  return (
    <div className="stack">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1>Notifications</h1>
        <button type="button" className="btn secondary" onClick={() => readAll.mutate()} disabled={readAll.isPending || !items.some((n) => !n.read)}>
          Mark all read
        </button>
      </div>
      <ErrorMessage error={inbox.error ?? readOne.error ?? readAll.error} retry={() => inbox.refetch()} />
      {inbox.isLoading ? (
        <Skeleton />
      ) : items.length === 0 ? (
        <Empty title="No notifications">Changes to your lists, deployments and suggestions show up here.</Empty>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
          {items.map((n) => (
            <li key={n.id} className="card">
              <div className="row" style={{ justifyContent: "space-between", alignItems: "flex-start" }}>
                <div>
                  <strong>{n.read ? n.title : `● ${n.title}`}</strong>
                  <p className="prose">{n.body}</p>
                  <span className="muted small">{dateTime(n.created_at)}</span> <About n={n} />
                </div>
                {!n.read && (
                  <button type="button" className="btn secondary" onClick={() => readOne.mutate(n.id)} aria-label={`Mark read: ${n.title}`}>
                    Mark read
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Preferences />
    </div>
  );
}
