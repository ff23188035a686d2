// A list page's search params: the tab and a share link's token.
import * as z from "zod/mini";
import { text } from "../app/search";
import type { ListTab } from "./list/tabs";

export const listSearch = z.object({
  /**
   * Any name here; the page maps one that is no tab to the mods. Checked there, against
   * list/tabs.ts, so that the router (in the first chunk) carries nothing of the list's tabs.
   */
  tab: z.catch(z.optional(z.custom<ListTab>((v: unknown) => typeof v === "string" && v !== "")), undefined),
  /** A share link's token: read-only access without an account. */
  share: text(),
});
export type ListSearch = z.infer<typeof listSearch>;
