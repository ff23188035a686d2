// Where the session lives: the JWT in localStorage (docs/web.md says why: the API uses bearer
// tokens and no cookies, so there is no CSRF surface; a strict CSP with no inline script is what
// keeps injected script from reading it). Listeners hear sign-in and sign-out, across tabs too.
const KEY = "loadout.token";
type Listener = () => void;
const listeners = new Set<Listener>();

export const getToken = (): string | null => {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
};

export function setToken(token: string) {
  localStorage.setItem(KEY, token);
  listeners.forEach((l) => l());
}

export function clearToken() {
  localStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

export function onTokenChange(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (e) => {
    if (e.key === KEY) listeners.forEach((l) => l());
  });
}
