// How GET /game-servers?search= reads a query: words match the start of a word of a server's name
// or scenario, address-like words (1.2.3.4, 10.0.1, host:2001, :2001) match its address, and a
// server whose name holds the whole query comes first. Nearly every Reforger server listens on
// port 2001, so digits ("01", "20") are name words, never a piece of the address.

/** Lower-cased words of a text: runs of letters and digits (any script). */
export function searchWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/** Marks where the name's words end and the scenario's begin in a search text. */
export const NAME_END = "\u0001";

/**
 * The stored search text (game_servers.search_text): " name words \u0001 scenario words ", each
 * word behind a space, so " <word>" found anywhere is a word start, and the name is the part
 * before NAME_END.
 */
export function serverSearchText(name: string, scenario: string): string {
  // A scan writes every server's search text (5,000), nearly all as they were: kept by scenario
  // (few) and name, the texts of up to SEARCH_TEXTS_KEPT names, so each is split by the Unicode
  // pattern once rather than every scan.
  let byName = searchTexts.get(scenario);
  if (!byName) searchTexts.set(scenario, (byName = new Map()));
  let text = byName.get(name);
  if (text === undefined) {
    const n = searchWords(name).join(" ");
    const s = searchWords(scenario).join(" ");
    text = ` ${n}${n ? " " : ""}${NAME_END} ${s}${s ? " " : ""}`;
    if (++searchTextsKept > SEARCH_TEXTS_KEPT) {
      searchTexts.clear();
      searchTextsKept = 1;
      searchTexts.set(scenario, (byName = new Map()));
    }
    byName.set(name, text);
  }
  return text;
}

/** At most this many search texts are kept (serverSearchText); past it all are dropped and kept anew. */
export const SEARCH_TEXTS_KEPT = 20_000;
const searchTexts = new Map<string, Map<string, string>>();
let searchTextsKept = 0;

const ADDRESS_LIKE = [
  /^\d{1,3}(\.\d{0,3}){1,3}(:\d{0,5})?$/, // 10.0, 10.0.1., 203.0.113.5, 203.0.113.5:2001
  /^[a-z0-9-]+(\.[a-z0-9-]+)*:\d{1,5}$/, // host:2001, play.example.com:2001
  /^:\d{1,5}$/, // :2001
];

export interface ServerSearch {
  /** " word" needles for the name and scenario words (each must be found). */
  words: string[];
  /** Lower-cased address-like pieces (each must be in the host address). */
  address: string[];
  /** " w1 w2 …": a server whose name holds this comes first (null when nothing to rank by). */
  phrase: string | null;
}

/** Reads a search query (at most 10 space-separated pieces, as before). */
export function parseServerSearch(q: string | undefined): ServerSearch {
  const pieces = (q ?? "").toLowerCase().split(/\s+/).filter((w) => w !== "").slice(0, 10);
  const words: string[] = [];
  const address: string[] = [];
  for (const p of pieces) {
    if (ADDRESS_LIKE.some((re) => re.test(p))) address.push(p);
    else words.push(...searchWords(p));
  }
  const unique = [...new Set(words)];
  return { words: unique.map((w) => " " + w), address, phrase: words.length ? " " + words.join(" ") : null };
}

export const isEmptySearch = (s: ServerSearch) => s.words.length === 0 && s.address.length === 0;

/** Whether the name part of a search text holds the phrase (the rank-first test). */
export function nameHolds(searchText: string, phrase: string): boolean {
  const at = searchText.indexOf(phrase);
  return at !== -1 && at < searchText.indexOf(NAME_END);
}
