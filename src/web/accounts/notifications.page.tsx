// The inbox: unread first, mark one or all read.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, get } from "../app/api";
import { dateTime } from "../app/format";
import { useSession } from "../app/session";
import { Empty, ErrorMessage, SignInFirst, Skeleton } from "../ui/components";

interface Notification {
  id: string;
  event: string;
  title: string;
  body: string;
  list_id: string | null;
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
                  <span className="muted small">{dateTime(n.created_at)}</span>
                </div>
                {!n.read && (
                  <button type="button" className="btn secondary" onClick={() => readOne.mutate(n.id)} aria-label={`Mark "${n.title}" read`}>
                    Mark read
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
