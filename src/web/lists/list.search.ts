// A list page's search params: the tab and a share link's token.
import { anyName, search, text, type SearchType } from "../app/search";
import type { ListTab } from "./list/tabs";

export const listSearch = search({
  /**
   * Any name here; the page maps one that is no tab to the mods. Checked there, against
   * list/tabs.ts, so that the router (in the first chunk) carries nothing of the list's tabs.
   */
  tab: anyName<ListTab>(),
  /** A share link's token: read-only access without an account. */
  share: text(),
});
export type ListSearch = SearchType<typeof listSearch>;
