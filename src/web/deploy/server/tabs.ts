// A server page's tabs, in the order they are shown. A new tab: its file in this folder
// (`export default function …(props: ServerTabProps)`) and its line here.
import { everyone, isOwner, type ServerTabEntry } from "./tab";

export const SERVER_TABS = [
  { id: "deploy", label: "Deploy and settings", open: isOwner, load: () => import("./deploy") },
  { id: "players", label: "Players", open: everyone, load: () => import("./players") },
  { id: "bans", label: "Bans", open: everyone, load: () => import("./bans") },
  { id: "log", label: "Moderation log", open: everyone, load: () => import("./log") },
  { id: "moderators", label: "Moderators", open: isOwner, load: () => import("./moderators") },
] as const satisfies readonly ServerTabEntry[];
export type ServerTab = (typeof SERVER_TABS)[number]["id"];
