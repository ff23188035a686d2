// The catalog's and a mod page's search params: filters, sort, page, tab and compared versions.
import * as z from "zod/mini";
import { oneOf, positiveInt, text } from "../app/search";
import { MOD_SORTS } from "../app/types";

export const catalogSearch = z.object({ q: text(), tag: text(), sort: oneOf(MOD_SORTS), page: positiveInt() });
export type CatalogSearch = z.infer<typeof catalogSearch>;

export const MOD_TABS = ["overview", "versions", "dependencies", "scenarios", "screenshots", "items", "usage"] as const;
export type ModTab = (typeof MOD_TABS)[number];
export const modSearch = z.object({ tab: oneOf(MOD_TABS), version: text(), from: text(), to: text() });
export type ModSearch = z.infer<typeof modSearch>;
