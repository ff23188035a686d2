// What a tab of a server's page is. Each tab is one file in this folder whose default export is its
// component (`export default function Bans({ serverId, role, server }: ServerTabProps)`); `tabs.ts`
// names it in one line, in the order the tabs are shown.
import type { LazyTab } from "../../ui/lazy-tabs";
import type { Server } from "../my-servers.services";

export type ServerRole = "owner" | "moderator";

export interface ServerTabProps {
  serverId: string;
  /** The owner sees everything; a moderator the players, the bans and the log. */
  role: ServerRole;
  /** The owner's view of the server (GET /servers/:id); null for a moderator, who may not read it. */
  server: Server | null;
}

/** A tab's line in `tabs.ts`: everything the page needs before the tab's code is loaded. */
export interface ServerTabEntry extends LazyTab<ServerTabProps> {
  /** Whether the caller's role on the server opens it (the API still decides every request). */
  open: (role: ServerRole) => boolean;
}

export const everyone = () => true;
export const isOwner = (role: ServerRole) => role === "owner";
