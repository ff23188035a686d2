// The list page's tabs, in the order they are shown. A new tab: its file in this folder
// (`export default function …(props: ListTabProps)`) and its line here.
import { everyone, isOwner, mayEdit, mayImport, type ListTabEntry } from "./tab";

export const LIST_TABS = [
  { id: "mods", label: "Mods", open: everyone, load: () => import("./mods") },
  { id: "check", label: "Pre-flight check", open: everyone, load: () => import("./check") },
  { id: "suggestions", label: "Suggestions", open: mayEdit, load: () => import("./suggestions") },
  { id: "templates", label: "Templates", open: mayImport, load: () => import("./templates") },
  { id: "import", label: "Import", open: mayImport, load: () => import("./import") },
  { id: "export", label: "Export", open: everyone, load: () => import("./export") },
  { id: "history", label: "History", open: mayEdit, load: () => import("./history") },
  { id: "sharing", label: "Sharing", open: isOwner, load: () => import("./sharing") },
  { id: "settings", label: "Settings", open: isOwner, load: () => import("./settings") },
] as const satisfies readonly ListTabEntry[];
export type ListTab = (typeof LIST_TABS)[number]["id"];
