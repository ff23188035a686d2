// BattlEye RCon packets, as Arma Reforger's own RCON speaks them (docs/rcon.md "Packets").
// Encode and decode only: no socket, no timer. Every decoder answers {ok: false, reason} for what
// it cannot use and never throws, so a socket loop can drop a packet and say why.
//
//   packet   'B' 'E' | CRC32 (4 bytes, little-endian) of 0xFF + payload | 0xFF | payload
//   login    client 0x00 | password                 server 0x00 | 0x01 (ok) or 0x00 (refused)
//   command  client 0x01 | seq | command text       server 0x01 | seq | [0x00 | parts | index] | text
//   message  server 0x02 | seq | text               client 0x02 | seq (the acknowledgement)
//
// Sources:
//  [spec]  BattlEye RCon Protocol Specification v2 (BattlEye Innovations, 2011), the copy in
//          thegamecracks/berconpy docs/source/BERConProtocol.txt.
//  [bpy]   thegamecracks/berconpy src/berconpy/protocol/packet.py: the CRC-32 (binascii.crc32) of
//          the bytes from the 0xFF on, written little-endian; a command reply is multi-part when
//          its first byte after the sequence is 0x00 (then parts, index; index < parts).
//  [bcli]  WoozyMasta/bercon-cli pkg/bercon/packet.go: the same CRC (crc32.ChecksumIEEE(out[6:]),
//          binary.LittleEndian).
//  [cap]   thegamecracks/berconpy#8: a Wireshark capture against a Reforger server; the client's
//          acknowledgement of message 3 is 42 45 c7 de e6 ea ff 02 03, i.e. the little-endian
//          CRC-32 of ff 02 03 (packets.test.ts checks this vector).
// Where the sources are silent (sizes): a datagram above 16 KiB, a multi-part answer of more than
// 64 parts or 512 KiB, or a Reforger answer of more than 256 messages is refused (RconLimits).
// UDP allows 65,507 bytes; BattlEye splits its answers "due to packet size limitations" [spec],
// and no source shows a packet near 16 KiB.

export const PACKET_LOGIN = 0x00;
export const PACKET_COMMAND = 0x01;
export const PACKET_MESSAGE = 0x02;

/** Bytes before the payload: 'B' 'E', the CRC, 0xFF. */
export const HEADER_BYTES = 7;

export interface RconLimits {
  /** A datagram larger than this is dropped unread. */
  maxPacketBytes: number;
  /** A multi-part command answer announcing more parts than this is refused. */
  maxParts: number;
  /** An answer (parts joined, or a Reforger answer's messages) larger than this is refused. */
  maxAnswerBytes: number;
  /** A Reforger-style answer gathering more server messages than this is refused. */
  maxAnswerMessages: number;
}

export const DEFAULT_LIMITS: Readonly<RconLimits> = Object.freeze({
  maxPacketBytes: 16 * 1024,
  maxParts: 64,
  maxAnswerBytes: 512 * 1024,
  maxAnswerMessages: 256,
});

export const limitsWith = (over: Partial<RconLimits> | undefined): RconLimits => ({ ...DEFAULT_LIMITS, ...over });

/** CRC-32 (IEEE 802.3, zlib's) of the bytes. */
export const crc32 = (bytes: Uint8Array): number => Bun.hash.crc32(bytes) >>> 0;

const utf8 = new TextDecoder("utf-8", { fatal: false });
/** Text as the server sent it: UTF-8, a broken sequence replaced rather than refused. */
export const decodeText = (bytes: Uint8Array): string => utf8.decode(bytes);

/** 'B' 'E' | CRC32 LE of (0xFF + payload) | 0xFF | payload. */
export function encodePacket(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  out[0] = 0x42;
  out[1] = 0x45;
  out[6] = 0xff;
  out.set(payload, HEADER_BYTES);
  out.writeUInt32LE(crc32(out.subarray(6)), 2);
  return out;
}

const seqByte = (seq: number): number => {
  if (!Number.isInteger(seq) || seq < 0 || seq > 255) throw new RangeError(`an RCON sequence number is 0..255, not ${seq}`);
  return seq;
};

// ---- what a client sends ----------------------------------------------------------------

export const encodeLogin = (password: string): Buffer => encodePacket(Buffer.concat([Buffer.from([PACKET_LOGIN]), Buffer.from(password, "utf8")]));

/** A command; the empty command is the keepalive [spec]. */
export const encodeCommand = (seq: number, command: string): Buffer =>
  encodePacket(Buffer.concat([Buffer.from([PACKET_COMMAND, seqByte(seq)]), Buffer.from(command, "utf8")]));

/** The acknowledgement of server message `seq`. */
export const encodeMessageAck = (seq: number): Buffer => encodePacket(Buffer.from([PACKET_MESSAGE, seqByte(seq)]));

// ---- what a server sends (the fake peer, and tests) ---------------------------------------

export const encodeLoginReply = (ok: boolean): Buffer => encodePacket(Buffer.from([PACKET_LOGIN, ok ? 1 : 0]));

/** A command reply; `part` adds the multi-part header (0x00 | parts | index). */
export function encodeCommandReply(seq: number, body: Uint8Array | string, part?: { total: number; index: number }): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const head = part ? [PACKET_COMMAND, seqByte(seq), 0x00, part.total, part.index] : [PACKET_COMMAND, seqByte(seq)];
  return encodePacket(Buffer.concat([Buffer.from(head), bytes]));
}

/** A long answer as the spec sends it: numbered parts of at most `partBytes` bytes each. */
export function encodeCommandReplyParts(seq: number, body: string, partBytes: number): Buffer[] {
  const bytes = Buffer.from(body, "utf8");
  if (bytes.length <= partBytes && bytes[0] !== 0x00) return [encodeCommandReply(seq, bytes)];
  const total = Math.max(1, Math.ceil(bytes.length / partBytes));
  if (total > 255) throw new RangeError(`an answer of ${bytes.length} bytes needs ${total} parts of ${partBytes}; at most 255`);
  return Array.from({ length: total }, (_, index) => encodeCommandReply(seq, bytes.subarray(index * partBytes, (index + 1) * partBytes), { total, index }));
}

export const encodeServerMessage = (seq: number, text: string): Buffer =>
  encodePacket(Buffer.concat([Buffer.from([PACKET_MESSAGE, seqByte(seq)]), Buffer.from(text, "utf8")]));

// ---- decoding ---------------------------------------------------------------------------------

export type ServerPacket =
  | { type: "login"; ok: boolean }
  /** part: null for a plain reply (body may be empty: Reforger's acknowledgement). */
  | { type: "command"; seq: number; body: Buffer; part: { total: number; index: number } | null }
  | { type: "message"; seq: number; text: string };

export type ClientPacket =
  | { type: "login"; password: string }
  | { type: "command"; seq: number; command: string }
  | { type: "ack"; seq: number };

export type Decoded<T> = { ok: true; packet: T } | { ok: false; reason: string };

const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** The checks every packet passes: size, 'B' 'E', 0xFF, the CRC. Returns the payload. */
function unwrap(buf: Uint8Array, limits: RconLimits): { ok: true; payload: Buffer } | { ok: false; reason: string } {
  if (buf.length > limits.maxPacketBytes) return refuse(`a packet of ${buf.length} bytes (more than ${limits.maxPacketBytes})`);
  if (buf.length < HEADER_BYTES + 1) return refuse(`a packet of ${buf.length} bytes is too short for an RCON packet`);
  if (buf[0] !== 0x42 || buf[1] !== 0x45) return refuse("a packet that does not start with 'BE'");
  if (buf[6] !== 0xff) return refuse("a packet without 0xFF after its checksum");
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  const sent = b.readUInt32LE(2);
  const actual = crc32(b.subarray(6));
  if (sent !== actual) return refuse(`a packet with a wrong checksum (${hex(sent)}, its bytes give ${hex(actual)})`);
  return { ok: true, payload: b.subarray(HEADER_BYTES) };
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, "0")}`;

/** A packet from a server, checked. */
export function decodeServerPacket(buf: Uint8Array, limits: RconLimits = DEFAULT_LIMITS): Decoded<ServerPacket> {
  const u = unwrap(buf, limits);
  if (!u.ok) return u;
  const p = u.payload;
  switch (p[0]) {
    case PACKET_LOGIN: {
      if (p.length !== 2 || (p[1] !== 0 && p[1] !== 1)) return refuse("a login reply that is not 0x00 then 0x00 or 0x01");
      return { ok: true, packet: { type: "login", ok: p[1] === 1 } };
    }
    case PACKET_COMMAND: {
      if (p.length < 2) return refuse("a command reply without a sequence number");
      const seq = p[1]!;
      if (p.length > 2 && p[2] === 0x00) {
        if (p.length < 5) return refuse(`a multi-part reply (sequence ${seq}) cut short in its header`);
        const total = p[3]!;
        const index = p[4]!;
        if (total === 0) return refuse(`a multi-part reply (sequence ${seq}) of 0 parts`);
        if (index >= total) return refuse(`a multi-part reply (sequence ${seq}) with part ${index} of ${total}`);
        return { ok: true, packet: { type: "command", seq, body: p.subarray(5), part: { total, index } } };
      }
      return { ok: true, packet: { type: "command", seq, body: p.subarray(2), part: null } };
    }
    case PACKET_MESSAGE: {
      if (p.length < 2) return refuse("a server message without a sequence number");
      return { ok: true, packet: { type: "message", seq: p[1]!, text: decodeText(p.subarray(2)) } };
    }
    default:
      return refuse(`a packet of unknown type 0x${p[0]!.toString(16).padStart(2, "0")}`);
  }
}

/** A packet from a client, checked (the fake peer's side). */
export function decodeClientPacket(buf: Uint8Array, limits: RconLimits = DEFAULT_LIMITS): Decoded<ClientPacket> {
  const u = unwrap(buf, limits);
  if (!u.ok) return u;
  const p = u.payload;
  switch (p[0]) {
    case PACKET_LOGIN:
      return { ok: true, packet: { type: "login", password: decodeText(p.subarray(1)) } };
    case PACKET_COMMAND:
      if (p.length < 2) return refuse("a command without a sequence number");
      return { ok: true, packet: { type: "command", seq: p[1]!, command: decodeText(p.subarray(2)) } };
    case PACKET_MESSAGE:
      if (p.length !== 2) return refuse("an acknowledgement that is not 0x02 then one sequence byte");
      return { ok: true, packet: { type: "ack", seq: p[1]! } };
    default:
      return refuse(`a packet of unknown type 0x${p[0]!.toString(16).padStart(2, "0")}`);
  }
}

/**
 * One multi-part answer's parts as they arrive, in any order [bpy]. `add` answers the whole body
 * once every part is here, or why the answer cannot be used (a part count that changes, an answer
 * over the byte limit); a part seen twice (a resend) is ignored.
 */
export class PartAssembler {
  private total = 0;
  private bytes = 0;
  private readonly parts = new Map<number, Buffer>();
  constructor(private readonly limits: RconLimits = DEFAULT_LIMITS) {}

  add(part: { total: number; index: number }, body: Buffer): { state: "done"; body: Buffer } | { state: "pending" } | { state: "refused"; reason: string } {
    // refused here, not as a packet: the command then fails with the reason, the connection stays
    if (part.total > this.limits.maxParts) return { state: "refused", reason: `an answer in ${part.total} parts (more than ${this.limits.maxParts})` };
    if (this.total === 0) this.total = part.total;
    else if (part.total !== this.total) return { state: "refused", reason: `a part says the answer has ${part.total} parts, an earlier one ${this.total}` };
    if (this.parts.has(part.index)) return { state: "pending" };
    this.bytes += body.length;
    if (this.bytes > this.limits.maxAnswerBytes) return { state: "refused", reason: `an answer of more than ${this.limits.maxAnswerBytes} bytes` };
    this.parts.set(part.index, Buffer.from(body));
    if (this.parts.size < this.total) return { state: "pending" };
    return { state: "done", body: Buffer.concat(Array.from({ length: this.total }, (_, i) => this.parts.get(i)!)) };
  }
}
