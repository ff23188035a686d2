// One server: its name, its status header (whether it answers and who is on, what was deployed and
// when, the address to copy, its live page: components/server-status.tsx), and the tabs the
// caller's role opens. Its owner sees everything (deploy and
// settings with RCON, players, bans, the moderation log, moderators); a moderator (who may not read
// the server itself) its players, bans and log. Each tab is a file in server/ and its own chunk (its
// line, in order, in server/tabs.ts; ui/lazy-tabs.tsx fetches it); their queries and what an act of
// moderation invalidates are in server.queries.ts.
import { useEffect } from "react";
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { Time } from "../ui/time";
import { useSession } from "../app/session";
import { ErrorMessage, SignInFirst, Skeleton } from "../ui/components";
import { lazyTabs } from "../ui/lazy-tabs";
import { TabNav } from "../ui/tab-nav";
import { ServerStatusHeader } from "./components/server-status";
import { useServerRole } from "./components/moderation";
import { SERVER_TABS } from "./server/tabs";
import type { ServerTabProps } from "./server/tab";

const { preload, TabPanel } = lazyTabs<ServerTabProps>();

export function MyServerPage() {
  const { id } = useParams({ from: "/my-servers/$id" });
  const { tab } = useSearch({ from: "/my-servers/$id" });
  const { token } = useSession();
  const access = useServerRole(id);
  const open = access.role ? SERVER_TABS.filter((t) => t.open(access.role!)) : [];
  // An unknown tab, or one the role does not open, shows the first it opens.
  const current = open.find((t) => t.id === tab) ?? open[0] ?? SERVER_TABS.find((t) => t.id === tab) ?? SERVER_TABS[0];
  // Fetch the tab's code while the server loads, not after.
  useEffect(() => void preload(current).catch(() => undefined), [current]);
  if (!token) return <SignInFirst next={`/my-servers/${id}`} what="your servers" />;
  if (access.loading) return <Skeleton lines={6} label="Loading the server" />;
  if (!access.role) return <ErrorMessage error={access.error} retry={access.retry} />;
  const srv = access.server;
  return (
    <article className="stack">
      <div>
        <h1>{access.name}</h1>
        {srv ? (
          <p className="muted break-anywhere">
            {srv.connection_type === "panel" ? "Game panel" : "SFTP"} · {srv.file_path} · credentials{" "}
            {srv.has_credentials ? (
              <>
                set <Time iso={srv.credentials_set_at} fallback="" />
              </>
            ) : (
              "missing"
            )}
            {srv.host_key_fingerprint ? ` · host key ${srv.host_key_fingerprint}` : ""}
          </p>
        ) : (
          <p className="muted">You moderate this server: you see who is on and who was, kick and ban, and lift your own bans.</p>
        )}
      </div>
      <ServerStatusHeader serverId={id} owner={access.role === "owner"} />
      <TabNav label="Sections of this server" current={current.id}>
        {open.map((t) => (
          <Link key={t.id} to="/my-servers/$id" params={{ id }} search={{ tab: t.id }} activeOptions={{ exact: true, includeSearch: true }} aria-current={t === current ? "page" : undefined}>
            {t.label}
          </Link>
        ))}
      </TabNav>
      <TabPanel tab={current} props={{ serverId: id, role: access.role, server: srv }} others={open} />
    </article>
  );
}
