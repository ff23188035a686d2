// A2S_INFO over UDP (Valve's server query protocol, which Reforger servers answer on their a2s
// port, 17777 by default). Small enough to own: one request, up to three
// challenge rounds, split replies reassembled, one parse. npm's gamedig speaks it too, but brings
// got, telnet-client and XML parsers for this one exchange. Sources: docs/live.md ("A2S client").
//
//   request   FF FF FF FF 54 "Source Engine Query\0" [challenge: 4 bytes]
//   challenge FF FF FF FF 41 <4 bytes>          → send the request again with them appended
//   info      FF FF FF FF 49 protocol name\0 map\0 folder\0 game\0 appid(u16) players max bots
//             type env visibility vac version\0 [EDF: 0x80 port(u16) 0x10 steamid(u64)
//             0x40 tvport(u16) tvname\0 0x20 keywords\0 0x01 gameid(u64)]
//   split     FE FF FF FF id(u32) then
//             Source:  total(u8) number(u8) size(u16) [number 0 of a compressed reply (id's top
//                      bit set): uncompressed size(u32) crc32(u32)] part
//             GoldSrc: number(high 4 bits) total(low 4 bits) in one byte, then part
//             the parts, joined in number order, are a whole reply (FF FF FF FF 49 ...)
import { createSocket, type Socket } from "node:dgram";
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";

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

/** A split reply's parts as they arrive (any order), until all are here. */
type SplitForm = "source" | "source-no-size" | "goldsrc";

interface SplitReply {
  raw: Buffer[];
  form: SplitForm | null;
}

const MAX_SPLIT_IDS = 8;
const MAX_REPLY_BYTES = 64 * 1024;

/** A packet the client cannot use; the query keeps waiting for the real reply. */
class StrayPacket extends Error {}

interface SplitPart {
  total: number;
  number: number;
  compressed: boolean;
  payload: Buffer;
}

/** Reads one split packet in the given form, or null when it cannot be that form. */
function readSplitPart(p: Buffer, form: SplitForm): SplitPart | null {
  if (form === "goldsrc") {
    if (p.length < 10) return null;
    const b = p[8]!;
    const total = b & 0x0f;
    const number = b >> 4;
    if (total < 1 || number >= total) return null;
    return { total, number, compressed: false, payload: p.subarray(9) };
  }
  if (p.length < 12) return null;
  const id = p.readUInt32LE(4);
  const total = p[8]!;
  const number = p[9]!;
  if (total < 1 || number >= total) return null;
  const compressed = (id & 0x80000000) !== 0;
  // Some old Source games omit the size field (the parts then start at byte 10).
  let at = form === "source-no-size" ? 10 : 12;
  if (number === 0 && compressed) at += 8; // uncompressed size and CRC32
  if (p.length < at) return null;
  return { total, number, compressed, payload: p.subarray(at) };
}

const isSimpleAt = (p: Buffer, at: number) => p.length >= at + 4 && p.readInt32LE(at) === -1;

/**
 * Which form a split reply uses, decided by its first part (number 0), whose payload is a whole
 * reply's start (FF FF FF FF): at byte 9 in the GoldSrc form, at byte 10 or 12 (or compressed)
 * in the Source form. null until part 0 is here.
 */
function splitForm(raw: Buffer[]): SplitForm | null {
  for (const p of raw) {
    if (p.length >= 13 && p[8]! >> 4 === 0 && isSimpleAt(p, 9)) return "goldsrc";
    if (p.length < 10 || p[9] !== 0) continue;
    if ((p.readUInt32LE(4) & 0x80000000) !== 0 || isSimpleAt(p, 12)) return "source";
    if (isSimpleAt(p, 10)) return "source-no-size";
  }
  return null;
}

/**
 * One A2S_INFO query. Resolves with the server's answer or rejects with A2sTimeoutError after
 * `timeoutMs` (the whole exchange, challenges included) or A2sError for an answer it cannot use
 * (a fourth challenge, a compressed split reply).
 *
 * Only packets from the exact address and port asked are read; anything else (another sender,
 * another header, garbage, an unreadable reply) is skipped and the query keeps waiting until the
 * timeout, whose message then says what was skipped. Split replies are reassembled in either
 * form and any order; the compressed Source form (bzip2) is refused by name, as no bzip2 decoder
 * is among our dependencies.
 */
export function queryInfo(host: string, port: number, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<A2sInfo> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  return new Promise<A2sInfo>((resolve, reject) => {
    let socket: Socket | null = null;
    let challenges = 0;
    let settled = false;
    let skipped = 0;
    let lastSkip = "";
    const splits = new Map<number, SplitReply>();
    const finish = (err: Error | null, info?: A2sInfo) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      try {
        socket?.close();
      } catch {}
      if (err) reject(err);
      else resolve(info!);
    };
    const onAbort = () => finish(new A2sError("A2S query aborted"));
    const timer = setTimeout(
      () =>
        finish(
          new A2sTimeoutError(
            `no A2S answer from ${host}:${port} within ${timeoutMs} ms` + (skipped ? ` (${skipped} unusable packet${skipped === 1 ? "" : "s"} skipped, the last: ${lastSkip})` : ""),
          ),
        ),
      timeoutMs,
    );
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener("abort", onAbort);

    /** A whole reply (FF FF FF FF ...), single or reassembled. */
    const onReply = (msg: Buffer, address: string, send: (b: Buffer) => void) => {
      if (msg.length < 5 || !isSimpleAt(msg, 0)) throw new StrayPacket("not an A2S reply header");
      const kind = msg[4]!;
      if (kind === 0x41) {
        if (msg.length < 9) throw new StrayPacket("a truncated challenge");
        if (++challenges > 3) throw new A2sError(`A2S server ${host}:${port} keeps answering with challenges`);
        splits.clear();
        send(Buffer.concat([REQUEST, msg.subarray(5, 9)]));
        return;
      }
      if (kind !== 0x49) throw new StrayPacket(`a reply of type 0x${kind.toString(16)}, not A2S_INFO`);
      let info: A2sInfo;
      try {
        info = parseInfo(msg.subarray(5), address);
      } catch (e) {
        throw new StrayPacket((e as Error).message);
      }
      finish(null, info);
    };

    const onSplit = (msg: Buffer, address: string, send: (b: Buffer) => void) => {
      if (msg.length < 10) throw new StrayPacket("a truncated split packet");
      const id = msg.readUInt32LE(4);
      let reply = splits.get(id);
      if (!reply) {
        if (splits.size >= MAX_SPLIT_IDS) splits.delete(splits.keys().next().value!);
        reply = { raw: [], form: null };
        splits.set(id, reply);
      }
      reply.raw.push(msg);
      if (reply.raw.reduce((n, p) => n + p.length, 0) > MAX_REPLY_BYTES) {
        splits.delete(id);
        throw new StrayPacket(`a split reply over ${MAX_REPLY_BYTES} bytes`);
      }
      reply.form ??= splitForm(reply.raw);
      if (!reply.form) return; // part 0 not here yet
      const parts = new Map<number, SplitPart>();
      let total = -1;
      for (const p of reply.raw) {
        const part = readSplitPart(p, reply.form);
        if (!part || (total !== -1 && part.total !== total)) continue; // unreadable or disagreeing: skipped
        total = part.total;
        if (!parts.has(part.number)) parts.set(part.number, part);
      }
      if (total === -1 || parts.size < total) return;
      splits.delete(id);
      if (parts.get(0)!.compressed) {
        throw new A2sError(`A2S reply from ${host}:${port} is a compressed split reply (bzip2), which this client does not decompress`);
      }
      const whole = Buffer.concat([...Array(total).keys()].map((i) => parts.get(i)!.payload));
      onReply(whole, address, send);
    };

    const start = (address: string) => {
      if (settled) return;
      const s = createSocket(isIP(address) === 6 ? "udp6" : "udp4");
      socket = s;
      const send = (payload: Buffer) =>
        s.send(payload, port, address, (err) => {
          if (err) finish(new A2sError(`A2S query to ${host}:${port} failed: ${err.message}`));
        });
      s.on("error", (err) => finish(new A2sError(`A2S query to ${host}:${port} failed: ${err.message}`)));
      s.on("message", (msg, rinfo) => {
        if (settled) return;
        try {
          // Only the exact address and port asked may answer (UDP senders are easy to forge
          // loosely, and a busy host may run several servers).
          if (rinfo.address !== address || rinfo.port !== port) throw new StrayPacket(`a packet from ${rinfo.address}:${rinfo.port}`);
          if (msg.length >= 4 && msg.readInt32LE(0) === -2) onSplit(msg, rinfo.address, send);
          else onReply(msg, rinfo.address, send);
        } catch (e) {
          if (e instanceof StrayPacket) {
            skipped++;
            lastSkip = e.message;
          } else finish(e as Error);
        }
      });
      send(REQUEST);
    };
    // The reply must come from the address asked, so a host name is resolved first (once).
    if (isIP(host)) start(host);
    else
      lookup(host)
        .then((r) => start(r.address))
        .catch((e: Error) => finish(new A2sError(`A2S query to ${host}:${port} failed: ${e.message}`)));
  });
}
