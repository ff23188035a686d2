// Sign-in's search params: where to go afterwards (a path on this site only, never another origin).
import { search, text, where } from "../app/search";

export const signInSearch = search({ next: where(text(), (v) => v.startsWith("/") && !v.startsWith("//")) });
