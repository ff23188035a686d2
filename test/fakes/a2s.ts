// A local A2S responder on 127.0.0.1 (UDP, random port): answers A2S_INFO as a Reforger server
// does (external-formats.md §3), directly or after the S2C_CHALLENGE step, or never (a server
// that is down or firewalled). A loopback datagram "LOADOUT-A2S <mode>" or "LOADOUT-A2S players
// <n>" changes it from outside the test process (the deploy tests' restart script sends one).
import { createSocket } from "node:dgram";

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

export interface A2sResponder {
  port: number;
  info: A2sResponderInfo;
  mode: A2sMode;
  /** Requests received: with or without the challenge bytes. */
  requests: { challenged: boolean }[];
  close(): void;
}

const HEADER = Buffer.from([0xff, 0xff, 0xff, 0xff]);
const QUERY = Buffer.from("TSource Engine Query\0", "latin1");
/** Prefix of the control datagrams. */
export const CONTROL = "LOADOUT-A2S ";

export function encodeInfo(info: A2sResponderInfo): Buffer {
  const str = (s: string) => Buffer.concat([Buffer.from(s, "utf8"), Buffer.from([0])]);
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(n);
    return b;
  };
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

export async function startA2sResponder(info: A2sResponderInfo, mode: A2sMode = "direct"): Promise<A2sResponder> {
  const socket = createSocket("udp4");
  const challenge = Buffer.from([0x0a, 0x0b, 0x0c, 0x0d]);
  const responder: A2sResponder = { port: 0, info, mode, requests: [], close: () => socket.close() };
  socket.on("message", (msg, rinfo) => {
    const text = msg.toString("latin1");
    if (text.startsWith(CONTROL) && rinfo.address === "127.0.0.1") {
      const [what, arg] = text.slice(CONTROL.length).trim().split(/\s+/);
      if (what === "players") responder.info.players = Number(arg);
      else if (what === "direct" || what === "challenge" || what === "silent") responder.mode = what;
      return;
    }
    if (msg.length < 5 + QUERY.length - 1 || !msg.subarray(0, 4).equals(HEADER) || !msg.subarray(4, 4 + QUERY.length).equals(QUERY)) return;
    const given = msg.subarray(4 + QUERY.length);
    const challenged = given.length === 4 && given.equals(challenge);
    responder.requests.push({ challenged });
    if (responder.mode === "silent") return;
    if (responder.mode === "challenge" && !challenged) {
      socket.send(Buffer.concat([HEADER, Buffer.from([0x41]), challenge]), rinfo.port, rinfo.address);
      return;
    }
    socket.send(encodeInfo(responder.info), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()));
  responder.port = socket.address().port;
  return responder;
}
