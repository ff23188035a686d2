// A server page's search params: the tab.
import * as z from "zod/mini";
import type { ServerTab } from "./server/tabs";

export const serverSearch = z.object({
  /**
   * Any name here; the page maps one that is no tab (or not one the caller's role opens) to the
   * first it opens. Checked there, against server/tabs.ts, so the router (in the first chunk)
   * carries nothing of the server's tabs.
   */
  tab: z.catch(z.optional(z.custom<ServerTab>((v: unknown) => typeof v === "string" && v !== "")), undefined),
});
export type ServerSearch = z.infer<typeof serverSearch>;
