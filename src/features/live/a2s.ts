// A2S_INFO over UDP (Valve's server query protocol, which Reforger servers answer on their a2s
// port, 17777 by default; external-formats.md §3). Small enough to own: one request, at most
// two challenge rounds, one parse. npm's gamedig speaks it too, but brings got, telnet-client and
// XML parsers for this one exchange.
//
//   request   FF FF FF FF 54 "Source Engine Query\0" [challenge: 4 bytes]
//   challenge FF FF FF FF 41 <4 bytes>          → send the request again with them appended
//   info      FF FF FF FF 49 protocol name\0 map\0 folder\0 game\0 appid(u16) players max bots
//             type env visibility vac version\0 [EDF: 0x80 port(u16) 0x10 steamid(u64)
//             0x40 tvport(u16) tvname\0 0x20 keywords\0 0x01 gameid(u64)]
import { createSocket, type Socket } from "node:dgram";
import { isIP } from "node:net";

export const A2S_DEFAULT_PORT = 17777;

export interface A2sInfo {
  /** The address that answered (resolved IP). */
  address: string;
  name: string;
  map: string;
  folder: string;
  game: string;
  players: number;
  max_players: number;
  bots: number;
  version: string;
  /** The game port, when the server sends it (EDF 0x80). */
  game_port: number | null;
  keywords: string | null;
  password: boolean;
  vac: boolean;
}

export class A2sError extends Error {}
export class A2sTimeoutError extends A2sError {}

const HEADER = Buffer.from([0xff, 0xff, 0xff, 0xff]);
const REQUEST = Buffer.concat([HEADER, Buffer.from("TSource Engine Query\0", "latin1")]);

class Reader {
  private o = 0;
  constructor(private readonly b: Buffer) {}
  u8(): number {
    if (this.o + 1 > this.b.length) throw new A2sError(`A2S_INFO reply truncated at byte ${this.o}`);
    return this.b[this.o++]!;
  }
  u16(): number {
    if (this.o + 2 > this.b.length) throw new A2sError(`A2S_INFO reply truncated at byte ${this.o}`);
    const v = this.b.readUInt16LE(this.o);
    this.o += 2;
    return v;
  }
  skip(n: number) {
    if (this.o + n > this.b.length) throw new A2sError(`A2S_INFO reply truncated at byte ${this.o}`);
    this.o += n;
  }
  str(): string {
    const end = this.b.indexOf(0, this.o);
    if (end < 0) throw new A2sError(`A2S_INFO reply has an unterminated string at byte ${this.o}`);
    const s = this.b.toString("utf8", this.o, end);
    this.o = end + 1;
    return s;
  }
  get done(): boolean {
    return this.o >= this.b.length;
  }
}

/** Parses the payload after FF FF FF FF 49. */
export function parseInfo(body: Buffer, address: string): A2sInfo {
  const r = new Reader(body);
  r.u8(); // protocol
  const name = r.str();
  const map = r.str();
  const folder = r.str();
  const game = r.str();
  r.u16(); // app id
  const players = r.u8();
  const max_players = r.u8();
  const bots = r.u8();
  r.u8(); // server type
  r.u8(); // environment
  const visibility = r.u8();
  const vac = r.u8();
  const version = r.str();
  let game_port: number | null = null;
  let keywords: string | null = null;
  if (!r.done) {
    const edf = r.u8();
    if (edf & 0x80) game_port = r.u16();
    if (edf & 0x10) r.skip(8);
    if (edf & 0x40) {
      r.u16();
      r.str();
    }
    if (edf & 0x20) keywords = r.str();
  }
  return { address, name, map, folder, game, players, max_players, bots, version, game_port, keywords, password: visibility === 1, vac: vac === 1 };
}

/**
 * One A2S_INFO query. Resolves with the server's answer or rejects with A2sTimeoutError after
 * `timeoutMs` (the whole exchange, challenge included) or A2sError for a reply it cannot read.
 */
export function queryInfo(host: string, port: number, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<A2sInfo> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  return new Promise<A2sInfo>((resolve, reject) => {
    const socket: Socket = createSocket(isIP(host) === 6 ? "udp6" : "udp4");
    let challenges = 0;
    let settled = false;
    const finish = (err: Error | null, info?: A2sInfo) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      try {
        socket.close();
      } catch {}
      if (err) reject(err);
      else resolve(info!);
    };
    const onAbort = () => finish(new A2sError("A2S query aborted"));
    const timer = setTimeout(() => finish(new A2sTimeoutError(`no A2S answer from ${host}:${port} within ${timeoutMs} ms`)), timeoutMs);
    opts.signal?.addEventListener("abort", onAbort);
    const send = (payload: Buffer) =>
      socket.send(payload, port, host, (err) => {
        if (err) finish(new A2sError(`A2S query to ${host}:${port} failed: ${err.message}`));
      });
    socket.on("error", (err) => finish(new A2sError(`A2S query to ${host}:${port} failed: ${err.message}`)));
    socket.on("message", (msg, rinfo) => {
      try {
        if (msg.length < 5 || !msg.subarray(0, 4).equals(HEADER)) throw new A2sError(`A2S reply from ${host}:${port} is not a single-packet reply`);
        const kind = msg[4];
        if (kind === 0x41) {
          if (msg.length < 9) throw new A2sError(`A2S challenge from ${host}:${port} is truncated`);
          if (++challenges > 2) throw new A2sError(`A2S server ${host}:${port} keeps answering with challenges`);
          send(Buffer.concat([REQUEST, msg.subarray(5, 9)]));
          return;
        }
        if (kind !== 0x49) throw new A2sError(`A2S reply from ${host}:${port} has type 0x${kind!.toString(16)}, not A2S_INFO`);
        finish(null, parseInfo(msg.subarray(5), rinfo.address));
      } catch (e) {
        finish(e as Error);
      }
    });
    send(REQUEST);
  });
}
