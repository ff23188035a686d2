// A local A2S responder on 127.0.0.1 (UDP, random port): answers A2S_INFO as a Reforger server
// does (docs/live.md "A2S client"), directly or after the S2C_CHALLENGE step, or never (a server
// that is down or firewalled). For the client's hardening it can also misbehave the ways a real
// network does: a stray packet before the real reply (from another port, with another header, or
// garbage), the reply only from another port, repeated challenges, and split replies in the Source
// form (with its size field, or without it like some old games; compressed with bzip2) and the
// GoldSrc form, in order or shuffled. Packet layouts: docs/live.md ("A2S client"). A loopback
// datagram "LOADOUT-A2S <mode>" or "LOADOUT-A2S players <n>" changes it from outside the test
// process (the deploy tests' restart script sends one).
import { createSocket, type Socket } from "node:dgram";
import { mulberry32 } from "../fixtures/prng";

export interface A2sResponderInfo {
  name: string;
  map: string;
  players: number;
  maxPlayers: number;
  version: string;
  /** The game port sent in the EDF (0x80); omitted when null. */
  gamePort: number | null;
  keywords?: string;
  password?: boolean;
}

export type A2sMode = "direct" | "challenge" | "silent";

export interface A2sBehaviour {
  /** Challenges sent before answering ("challenge" mode; default 1). */
  challengeRounds?: number;
  /** A packet sent just before the real reply. */
  strayFirst?: "other-port" | "wrong-header" | "garbage" | "truncated-info";
  /** The reply comes only from another port (a spoofer or a NAT gone wrong): never from the one asked. */
  replyFromOtherPort?: boolean;
  /** Send the reply split into this many packets. */
  split?: {
    parts: number;
    form: "source" | "source-no-size" | "goldsrc";
    /** Shuffled with this seed; in order when absent. */
    shuffleSeed?: number;
    /** Source form only: bzip2 the reply and set the compression bit (uncompressed size and CRC32 in part 0). */
    compressed?: boolean;
  };
}

export interface A2sResponder {
  port: number;
  /** The second socket's port (strays and replies "from another port"). */
  otherPort: number;
  info: A2sResponderInfo;
  mode: A2sMode;
  behaviour: A2sBehaviour;
  /** Requests received: with or without the challenge bytes (the one of the round they answer). */
  requests: { challenged: boolean }[];
  close(): void;
}

const HEADER = Buffer.from([0xff, 0xff, 0xff, 0xff]);
const SPLIT = Buffer.from([0xfe, 0xff, 0xff, 0xff]);
const QUERY = Buffer.from("TSource Engine Query\0", "latin1");
/** Prefix of the control datagrams. */
export const CONTROL = "LOADOUT-A2S ";

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

export function encodeInfo(info: A2sResponderInfo): Buffer {
  const str = (s: string) => Buffer.concat([Buffer.from(s, "utf8"), Buffer.from([0])]);
  const edf = (info.gamePort !== null ? 0x80 : 0) | (info.keywords !== undefined ? 0x20 : 0);
  return Buffer.concat([
    HEADER,
    Buffer.from([0x49, 17]),
    str(info.name),
    str(info.map),
    str("ArmaReforger"),
    str("Arma Reforger"),
    u16(0),
    Buffer.from([info.players, info.maxPlayers, 0, 0x64, 0x6c, info.password ? 1 : 0, 0]),
    str(info.version),
    Buffer.from([edf]),
    info.gamePort !== null ? u16(info.gamePort) : Buffer.alloc(0),
    info.keywords !== undefined ? str(info.keywords) : Buffer.alloc(0),
  ]);
}

/** CRC-32 (IEEE), as the compressed Source form's header carries it. */
function crc32(b: Buffer): number {
  let c = ~0;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** bzip2 by Debian's own bzip2 (the responder only needs to produce the bytes a server would send). */
function bzip2(b: Buffer): Buffer {
  const r = Bun.spawnSync(["bzip2", "-c"], { stdin: b });
  if (r.exitCode !== 0) throw new Error("bzip2 failed");
  return Buffer.from(r.stdout);
}

/** A whole reply as the packets of a split reply (FE FF FF FF ...), in the given form. */
export function splitReply(reply: Buffer, split: NonNullable<A2sBehaviour["split"]>, id: number): Buffer[] {
  const body = split.compressed ? bzip2(reply) : reply;
  const size = Math.ceil(body.length / split.parts);
  const packets: Buffer[] = [];
  for (let n = 0; n < split.parts; n++) {
    const part = body.subarray(n * size, (n + 1) * size);
    if (split.form === "goldsrc") {
      packets.push(Buffer.concat([SPLIT, u32(id), Buffer.from([(n << 4) | split.parts]), part]));
      continue;
    }
    const head = [SPLIT, u32(split.compressed ? id | 0x80000000 : id), Buffer.from([split.parts, n])];
    if (split.form === "source") head.push(u16(1248));
    if (split.compressed && n === 0) head.push(u32(reply.length), u32(crc32(reply)));
    packets.push(Buffer.concat([...head, part]));
  }
  if (split.shuffleSeed !== undefined) {
    const rnd = mulberry32(split.shuffleSeed);
    for (let i = packets.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [packets[i], packets[j]] = [packets[j]!, packets[i]!];
    }
  }
  return packets;
}

export async function startA2sResponder(info: A2sResponderInfo, mode: A2sMode = "direct", behaviour: A2sBehaviour = {}): Promise<A2sResponder> {
  const socket = createSocket("udp4");
  const other = createSocket("udp4");
  // A reply to a client that already gave up comes back as ICMP "port unreachable", which the
  // runtime reports as an 'error' event (recvmsg ECONNREFUSED): a real server shrugs that off too.
  for (const s of [socket, other]) s.on("error", () => {});
  const challenges = [0x0a0b0c0d, 0x1a1b1c1d, 0x2a2b2c2d, 0x3a3b3c3d, 0x4a4b4c4d].map(u32);
  let splitId = 1;
  const responder: A2sResponder = {
    port: 0,
    otherPort: 0,
    info,
    mode,
    behaviour,
    requests: [],
    close: () => {
      socket.close();
      other.close();
    },
  };
  const sendFrom = (s: Socket, b: Buffer, port: number, address: string) => s.send(b, port, address);
  socket.on("message", (msg, rinfo) => {
    const text = msg.toString("latin1");
    if (text.startsWith(CONTROL) && rinfo.address === "127.0.0.1") {
      const [what, arg] = text.slice(CONTROL.length).trim().split(/\s+/);
      if (what === "players") responder.info.players = Number(arg);
      else if (what === "direct" || what === "challenge" || what === "silent") responder.mode = what;
      return;
    }
    if (msg.length < 4 + QUERY.length || !msg.subarray(0, 4).equals(HEADER) || !msg.subarray(4, 4 + QUERY.length).equals(QUERY)) return;
    const given = msg.subarray(4 + QUERY.length);
    // Which round this request answers: 0 without challenge bytes, k after the k-th challenge.
    const round = given.length === 4 ? challenges.findIndex((c) => c.equals(given)) + 1 : given.length === 0 ? 0 : -1;
    responder.requests.push({ challenged: round > 0 });
    if (responder.mode === "silent" || round < 0) return;
    const b = responder.behaviour;
    const rounds = responder.mode === "challenge" ? (b.challengeRounds ?? 1) : 0;
    if (round < rounds) {
      sendFrom(socket, Buffer.concat([HEADER, Buffer.from([0x41]), challenges[round]!]), rinfo.port, rinfo.address);
      return;
    }
    const reply = encodeInfo(responder.info);
    if (b.strayFirst === "other-port") sendFrom(other, encodeInfo({ ...responder.info, name: "Impostor" }), rinfo.port, rinfo.address);
    if (b.strayFirst === "wrong-header") sendFrom(socket, Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0x00]), reply.subarray(4)]), rinfo.port, rinfo.address);
    if (b.strayFirst === "garbage") sendFrom(socket, Buffer.from("\x00\x13garbage, not A2S at all"), rinfo.port, rinfo.address);
    if (b.strayFirst === "truncated-info") sendFrom(socket, reply.subarray(0, 12), rinfo.port, rinfo.address);
    const from = b.replyFromOtherPort ? other : socket;
    const packets = b.split ? splitReply(reply, b.split, splitId++) : [reply];
    for (const p of packets) sendFrom(from, p, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()));
  await new Promise<void>((resolve) => other.bind(0, "127.0.0.1", () => resolve()));
  responder.port = socket.address().port;
  responder.otherPort = other.address().port;
  return responder;
}
