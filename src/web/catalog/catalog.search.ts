// The catalog's and a mod page's search params: filters, sort, page, tab and compared versions.
import { oneOf, positiveInt, search, text, type SearchType } from "../app/search";
import { MOD_SORTS } from "../app/types";

/** Mods a catalog page shows (the server's page preloads ask for the first page with it: src/features/web/preload.ts). */
export const PAGE_SIZE = 24;

export const catalogSearch = search({ q: text(), tag: text(), sort: oneOf(MOD_SORTS), page: positiveInt() });
export type CatalogSearch = SearchType<typeof catalogSearch>;

export const MOD_TABS = ["overview", "versions", "dependencies", "scenarios", "screenshots", "items", "usage"] as const;
export type ModTab = (typeof MOD_TABS)[number];
export const modSearch = search({ tab: oneOf(MOD_TABS), version: text(), from: text(), to: text() });
export type ModSearch = SearchType<typeof modSearch>;
