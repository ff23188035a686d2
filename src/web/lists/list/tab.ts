// What a tab of the list page is. Each tab is one file in this folder whose default export is its
// component (`export default function Check({ list, share }: ListTabProps)`); `tabs.ts` names it
// in one line, in the order the tabs are shown.
import type { LazyTab } from "../../ui/lazy-tabs";
import type { ListDetail } from "../lists.services";

export interface ListTabProps {
  list: ListDetail;
  /** The share link's token when the list is read through it. */
  share?: string;
}

export type ListAccess = ListDetail["my_access"];

/** A tab's line in `tabs.ts`: everything the page needs before the tab's code is loaded. */
export interface ListTabEntry extends LazyTab<ListTabProps> {
  /** Whether the caller's rights (`my_access`) open it. */
  open: (access: ListAccess) => boolean;
}

/** Who may see a tab. Only what is offered: the API still decides every request. */
export const everyone = () => true;
export const mayEdit = (a: ListAccess) => a.can_add || a.can_remove;
/** Import and templates replace the list's mods: the server says who may (`can_import`). */
export const mayImport = (a: ListAccess) => a.can_import;
export const isOwner = (a: ListAccess) => a.is_owner;
