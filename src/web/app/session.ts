// Who is signed in: the token (auth-store) and GET /auth/me for it.
import { useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { get } from "./api";
import { getToken, onTokenChange } from "./auth-store";
import type { Me } from "./types";

export function useToken(): string | null {
  return useSyncExternalStore(onTokenChange, getToken, () => null);
}

export function useSession() {
  const token = useToken();
  const me = useQuery({ queryKey: ["me", token], queryFn: ({ signal }) => get<Me>("/auth/me", signal), enabled: !!token, staleTime: 60_000 });
  return { token, me: token ? (me.data ?? null) : null, loading: !!token && me.isLoading, error: me.error };
}
