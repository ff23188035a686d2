// Sign-in's search params: where to go afterwards (a path on this site only, never another origin).
import * as z from "zod/mini";
import { text } from "../app/search";

export const signInSearch = z.object({ next: z.catch(text().check(z.refine((v) => v === undefined || v.startsWith("/"))), undefined) });
