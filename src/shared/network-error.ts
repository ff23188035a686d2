// What went wrong when an outgoing request got no HTTP answer at all, in words an operator can act
// on ("name lookup failed for reforger.armaplatform.com") instead of the runtime's message.

/** Describes a failed fetch (no response): name lookup, refused or reset connection, TLS, timeout. */
export function describeFetchFailure(err: unknown, url: string): string {
  let host = url;
  try {
    const u = new URL(url);
    host = u.port ? `${u.hostname}:${u.port}` : u.hostname;
  } catch {}
  const e = err as { code?: string; name?: string; message?: string } | null;
  const code = e?.code ?? "";
  const message = e?.message ?? String(err);
  if (e?.name === "TimeoutError" || code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return `no answer from ${host} in time`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || /getaddrinfo|DNS/i.test(message))
    return `name lookup failed for ${host.replace(/:\d+$/, "")}`;
  if (code === "ECONNREFUSED" || /ECONNREFUSED|connection refused/i.test(message)) return `connection refused by ${host}`;
  if (code === "ECONNRESET" || /ECONNRESET|socket hang up|connection.*closed/i.test(message)) return `connection to ${host} was cut`;
  if (code === "ENETUNREACH" || code === "EHOSTUNREACH") return `no route to ${host}`;
  if (/certificate|CERT_|SSL|TLS/i.test(code + " " + message)) return `TLS failed with ${host}: ${message}`;
  return `network error reaching ${host}: ${message}`;
}
