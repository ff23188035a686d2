// What sending a big cached body costs Bun itself (issue 29, round 3, the fixed 200–330 KB stat
// series rows): a bare Bun.serve answering every request with the same ASCII JSON of N bytes, kept
// as a string (flat, 8-bit), as a Uint8Array, as a Blob made once, or as a string re-encoded per request, under wrk at 32
// clients; the server process's CPU per request (/proc/<pid>/stat), alternating the kinds.
//   bun bench/body-send.ts [--bytes 333000] [--seconds 5] [--rounds 3] [--kinds string,bytes,blob,encode each]
// (run as the server with --serve <kind> <port> <bytes> by itself)
import { readFileSync } from "node:fs";
import { spawn } from "bun";
import { driveWrk } from "./wrk";
import { mulberry32 } from "../test/fixtures/prng";
import { argOf } from "./args";

const body = (bytes: number) => {
  const one = '{"time":"2026-02-13T03:00:00.000Z","player_count":9,"queue_players_count":0,"wait_time_estimation":0,"player_count_max":10}';
  const n = Math.max(1, Math.floor(bytes / (one.length + 1)));
  return "[" + Array.from({ length: n }, () => one).join(",") + "]";
};

if (process.argv[2] === "--serve") {
  const [kind, port, bytes] = [process.argv[3]!, Number(process.argv[4]), Number(process.argv[5])];
  const text = body(bytes);
  text.charCodeAt(0); // flat
  const bin = new TextEncoder().encode(text);
  const headers = { "content-type": "application/json;charset=utf-8" };
  const blob = new Blob([bin], { type: headers["content-type"] });
  Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch: () =>
      kind === "string"
        ? new Response(text, { headers })
        : kind === "bytes"
          ? new Response(bin, { headers })
          : kind === "blob"
            ? new Response(blob)
            : new Response(new TextEncoder().encode(text), { headers }),
  });
} else {
  const bytes = Number(argOf("bytes", "333000"));
  const seconds = Number(argOf("seconds", "5"));
  const rounds = Number(argOf("rounds", "3"));
  const kinds = argOf("kinds", "string,bytes,blob,encode each").split(",");
  const results: Record<string, number[]> = Object.fromEntries(kinds.map((k) => [k, [] as number[]]));
  for (let r = 0; r < rounds; r++) {
    for (const kind of Object.keys(results)) {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const p = spawn([process.execPath, import.meta.path, "--serve", kind === "encode each" ? "encode" : kind, String(port), String(bytes)], { stdout: "ignore", stderr: "inherit" });
      const base = `http://127.0.0.1:${port}`;
      for (let t = 0; ; t++) {
        try {
          if ((await fetch(base)).ok) break;
        } catch {}
        if (t > 200) throw new Error("server did not start");
        await Bun.sleep(25);
      }
      const cpu = () => {
        const f = readFileSync(`/proc/${p.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return (Number(f[11]) + Number(f[12])) * 10; // ms
      };
      await driveWrk(base, { method: "GET", path: "/" }, 32, 1, 1, mulberry32(1));
      const c0 = cpu();
      const w = await driveWrk(base, { method: "GET", path: "/" }, 32, seconds, 1, mulberry32(2));
      const us = ((cpu() - c0) * 1000) / w.requests;
      results[kind]!.push(us);
      console.log(`| ${kind} | ${bytes} | ${us.toFixed(0)} µs | ${w.rps} req/s | p99 ${w.p99} ms |`);
      p.kill();
      await p.exited;
    }
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  for (const [k, v] of Object.entries(results)) console.log(`${k}: median ${med(v).toFixed(0)} µs a request (${v.map((x) => x.toFixed(0)).join(", ")})`);
}
