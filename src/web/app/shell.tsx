// The frame of every page: header (navigation, unread notifications, account), the pending-
// approval banner, the page itself, a footer.
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { get } from "./api";
import { clearToken } from "./auth-store";
import { useSession } from "./session";

function UnreadBadge() {
  const { me } = useSession();
  const unread = useQuery({
    queryKey: ["unread-count", me?.id],
    queryFn: ({ signal }) => get<{ count: number }>("/notifications/unread-count", signal),
    enabled: !!me,
    // Cheap and exempt from rate limits: kept fresh by polling.
    refetchInterval: 30_000,
  });
  if (!me) return null;
  const n = unread.data?.count ?? 0;
  return (
    <Link to="/notifications" aria-label={`Notifications, ${n} unread`}>
      Notifications{" "}
      <span className="badge" aria-hidden="true">
        {n}
      </span>
    </Link>
  );
}

export function Shell() {
  const { me, token } = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const mainRef = useRef<HTMLElement>(null);
  // On small screens the links fold into a menu (a disclosure button), closed again on navigation.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  // Move focus to the page on navigation, so keyboard and screen-reader users start there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.focus();
  }, [path]);

  const signOut = () => {
    clearToken();
    qc.clear();
    void navigate({ to: "/mods" });
  };
  const navClass = (prefix: string) => (path === prefix || path.startsWith(prefix + "/") ? "active" : undefined);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={menuOpen ? "header menu-open" : "header"}>
        <div className="header-inner">
          <Link to="/mods" className="brand">
            Loadout
          </Link>
          <button type="button" className="btn secondary menu-button" aria-expanded={menuOpen} aria-controls="site-menu" onClick={() => setMenuOpen((o) => !o)}>
            Menu
          </button>
          <div id="site-menu" className="site-menu">
            <nav className="nav" aria-label="Main">
              <Link to="/mods" className={navClass("/mods")}>
                Catalog
              </Link>
              <Link to="/lists" className={navClass("/lists")}>
                Lists
              </Link>
              <Link to="/live" search={{}} className={navClass("/live")}>
                Servers
              </Link>
              <Link to="/stats" search={{}} className={navClass("/stats")}>
                Statistics
              </Link>
              {me && (
                <Link to="/my-servers" className={navClass("/my-servers")}>
                  My servers
                </Link>
              )}
              {me?.role === "admin" && (
                <Link to="/admin" className={navClass("/admin")}>
                  Admin
                </Link>
              )}
            </nav>
            <div className="nav-right">
              {me ? (
                <>
                  <UnreadBadge />
                  <Link to="/settings" className={navClass("/settings")}>
                    {me.display_name}
                  </Link>
                  <button type="button" className="btn secondary" onClick={signOut}>
                    Sign out
                  </button>
                </>
              ) : token ? null : (
                <>
                  <Link to="/sign-in" search={{ next: undefined }}>
                    Sign in
                  </Link>
                  <Link to="/register" className="btn">
                    Register
                  </Link>
                </>
              )}
          </div>
          </div>
        </div>
      </header>
      {me && !me.is_approved && (
        <div className="alert warn" role="status" style={{ borderRadius: 0, borderLeft: 0, borderRight: 0, textAlign: "center" }}>
          Your account is waiting for approval by an admin. You can browse and read; changes will work once you are approved.
        </div>
      )}
      <main id="main" ref={mainRef} tabIndex={-1} style={{ outline: "none" }}>
        <Outlet />
      </main>
      <footer className="footer">
        Loadout · <a href="/swagger">API documentation</a>
      </footer>
    </>
  );
}

export function NotFound() {
  return (
    <div className="card">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/mods">Browse the catalog</Link>.
      </p>
    </div>
  );
}
