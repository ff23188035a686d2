// What a tab of the list page is. Each tab is one file in this folder exporting one `listTab(…)`;
// `tabs.ts` lists them in the order they are shown.
import type { ComponentType } from "react";
import type { ListDetail } from "../lists.services";

export interface ListTabProps {
  list: ListDetail;
  /** The share link's token when the list is read through it. */
  share?: string;
}

export interface ListTabDef<Id extends string = string> {
  /** Its name in the URL (`/lists/:id?tab=…`). */
  id: Id;
  label: string;
  /** Whether the caller's rights (`my_access`) open it. Only what is offered: the API still decides every request. */
  open: (access: ListDetail["my_access"]) => boolean;
  Component: ComponentType<ListTabProps>;
}

/** Declares a tab, keeping its id as a literal type (the router's `ListTab` is the union of them). */
export const listTab = <const Id extends string>(t: ListTabDef<Id>): ListTabDef<Id> => t;

/** Rights shared by several tabs. */
export const mayEdit = (a: ListDetail["my_access"]) => a.can_add || a.can_remove;
export const mayAddAndRemove = (a: ListDetail["my_access"]) => a.can_add && a.can_remove;
