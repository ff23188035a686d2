// What a tab of the mod page is. Each tab is one file in this folder whose default export is its
// component (`export default function Versions({ id }: ModTabProps)`); `tabs.ts` names it in one
// line, in the order the tabs are shown.
import type { ModDetail } from "../../app/types";
import type { LazyTab } from "../../ui/lazy-tabs";
import type { ModTab } from "../catalog.search";

export interface ModTabProps {
  /** The workshop ID as the URL has it (`/mods/:id`). */
  id: string;
  mod: ModDetail;
}

/** A tab's line in `tabs.ts`; its id is one of the router's (`MOD_TABS` in catalog.search.ts). */
export interface ModTabEntry extends LazyTab<ModTabProps> {
  id: ModTab;
}
