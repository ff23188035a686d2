// The mod page's tabs, in the order they are shown. A new tab: its file in this folder
// (`export default function …(props: ModTabProps)`), its line here, and its id in `MOD_TABS`
// (catalog.search.ts: the router's schema drops any other name, and it loads before any page).
import type { ModTab } from "../catalog.search";
import type { ModTabEntry } from "./tab";

export const MOD_PAGE_TABS = [
  { id: "overview", label: "Overview", load: () => import("./overview") },
  { id: "versions", label: "Versions", load: () => import("./versions") },
  { id: "dependencies", label: "Dependencies", load: () => import("./dependencies") },
  { id: "scenarios", label: "Scenarios", load: () => import("./scenarios") },
  { id: "screenshots", label: "Screenshots", load: () => import("./screenshots") },
  { id: "items", label: "Items", load: () => import("./items") },
  { id: "usage", label: "Live usage", load: () => import("./usage") },
] as const satisfies readonly ModTabEntry[];

/** An id of the router's `MOD_TABS` without its line here; this fails to compile, naming it, unless there is none. */
type Unlisted = Exclude<ModTab, (typeof MOD_PAGE_TABS)[number]["id"]>;
const everyTabListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyTabListed;
