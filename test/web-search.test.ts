// The pages' search params (src/web/*/*.search.ts, zod/mini schemas the router validates with):
// a link edited by hand never breaks a page, a value that does not fit is dropped (a page number
// becomes 1), numbers the router parsed from digits are texts again, and sign-in's `next` stays
// on this site. (A list's tab is checked by the browser tests: its type comes from the tab
// components, which this project's typings do not compile.)
import { describe, expect, test } from "bun:test";
import { liveSearch, liveServerSearch, rangeSearch } from "../src/web/live/live.search";
import { signInSearch } from "../src/web/accounts/accounts.search";
import { catalogSearch, modSearch } from "../src/web/catalog/catalog.search";
import { adminSearch } from "../src/web/admin/admin.search";
import { tokenSearch } from "../src/web/app/search";

const parse = (schema: { "~standard": { validate: (v: unknown) => unknown } }, v: unknown) => {
  const r = schema["~standard"].validate(v) as { value?: unknown; issues?: unknown };
  expect(r.issues).toBeUndefined();
  return r.value;
};

describe("search params", () => {
  test("the live browser: texts, numbers, names; what does not fit is dropped, a bad page is 1", () => {
    expect(parse(liveSearch, { q: 123, page: "abc", min_players: "3", official: "maybe", password: "yes", sort: "recent", mods: "", extra: "x" })).toEqual({
      q: "123",
      sort: "recent",
      min_players: 3,
      password: "yes",
      page: 1,
    });
    expect(parse(liveSearch, {})).toEqual({});
    expect(parse(liveSearch, { page: 2.5, max_mod_size_mb: -1, tags: "pvp" })).toEqual({ page: 1, max_mod_size_mb: 1, tags: "pvp" });
  });

  test("ranges and a server's pages", () => {
    expect(parse(rangeSearch, { range: "14d" })).toEqual({ range: "14d" });
    expect(parse(rangeSearch, { range: "2d" })).toEqual({});
    expect(parse(liveServerSearch, { range: "365d", mods_page: 0, changes_page: 2 })).toEqual({ range: "365d", mods_page: 1, changes_page: 2 });
  });

  test("sign-in goes back only to a path on this site", () => {
    expect(parse(signInSearch, { next: "/lists?tab=mods" })).toEqual({ next: "/lists?tab=mods" });
    expect(parse(signInSearch, { next: "https://elsewhere.example" })).toEqual({});
    expect(parse(signInSearch, { next: 5 })).toEqual({});
  });

  test("catalog, mod page, admin and tokens", () => {
    expect(parse(catalogSearch, { sort: "nope", page: null, tag: "x", q: "" })).toEqual({ tag: "x", page: 1 });
    expect(parse(modSearch, { tab: "usage", version: 100, from: "1.0.0" })).toEqual({ tab: "usage", version: "100", from: "1.0.0" });
    expect(parse(modSearch, { tab: "nope" })).toEqual({});
    expect(parse(adminSearch, { tab: "jobs", status: "failed" })).toEqual({ tab: "jobs", status: "failed" });
    expect(parse(adminSearch, { tab: "x", status: "lost" })).toEqual({});
    expect(parse(tokenSearch, { token: "t0k" })).toEqual({ token: "t0k" });
  });
});
