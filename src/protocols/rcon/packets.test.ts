// The packet layer alone: the layout, the checksum against a real Reforger capture, every refusal
// with its reason, multi-part reassembly.
import { describe, expect, test } from "bun:test";
import {
  crc32,
  decodeClientPacket,
  decodeServerPacket,
  DEFAULT_LIMITS,
  encodeCommand,
  encodeCommandReply,
  encodeCommandReplyParts,
  encodeLogin,
  encodeLoginReply,
  encodeMessageAck,
  encodePacket,
  encodeServerMessage,
  limitsWith,
  PartAssembler,
} from "./packets";

const hex = (b: Buffer) => b.toString("hex").replace(/(..)/g, "$1 ").trim();

describe("layout and checksum", () => {
  test("the acknowledgement of message 3 is byte for byte the one captured against a Reforger server (berconpy#8)", () => {
    expect(hex(encodeMessageAck(3))).toBe("42 45 c7 de e6 ea ff 02 03");
  });

  test("the checksum is zlib's CRC-32 of 0xFF + payload, little-endian after 'BE'", () => {
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
    const p = encodePacket(Buffer.from([0x01, 0x07, 0x41]));
    expect([...p.subarray(0, 2)]).toEqual([0x42, 0x45]);
    expect(p[6]).toBe(0xff);
    expect(p.readUInt32LE(2)).toBe(crc32(Buffer.from([0xff, 0x01, 0x07, 0x41])));
  });

  test("client packets: login, command (the keepalive is empty), acknowledgement", () => {
    expect(decodeClientPacket(encodeLogin("pa55"))).toEqual({ ok: true, packet: { type: "login", password: "pa55" } });
    expect(decodeClientPacket(encodeCommand(255, "#players"))).toEqual({ ok: true, packet: { type: "command", seq: 255, command: "#players" } });
    expect(decodeClientPacket(encodeCommand(0, ""))).toEqual({ ok: true, packet: { type: "command", seq: 0, command: "" } });
    expect(decodeClientPacket(encodeMessageAck(9))).toEqual({ ok: true, packet: { type: "ack", seq: 9 } });
    expect(() => encodeCommand(256, "x")).toThrow(RangeError);
  });

  test("server packets: login answers, a plain reply (empty: Reforger's acknowledgement), a part, a message", () => {
    expect(decodeServerPacket(encodeLoginReply(true))).toEqual({ ok: true, packet: { type: "login", ok: true } });
    expect(decodeServerPacket(encodeLoginReply(false))).toEqual({ ok: true, packet: { type: "login", ok: false } });
    const empty = decodeServerPacket(encodeCommandReply(4, ""));
    expect(empty.ok && empty.packet.type === "command" && empty.packet.body.length === 0 && empty.packet.part === null).toBe(true);
    const part = decodeServerPacket(encodeCommandReply(4, "abc", { total: 3, index: 1 }));
    expect(part.ok && part.packet.type === "command" ? [part.packet.part, part.packet.body.toString()] : null).toEqual([{ total: 3, index: 1 }, "abc"]);
    expect(decodeServerPacket(encodeServerMessage(200, "Spieler Jürgen ; ✓"))).toEqual({ ok: true, packet: { type: "message", seq: 200, text: "Spieler Jürgen ; ✓" } });
  });
});

describe("every refusal says why (and nothing throws)", () => {
  const good = encodeServerMessage(1, "hello");
  const cases: [string, Buffer, RegExp][] = [
    ["too short", Buffer.from([0x42, 0x45, 0, 0]), /too short/],
    ["not 'BE'", Buffer.concat([Buffer.from("XE"), good.subarray(2)]), /start with 'BE'/],
    ["no 0xFF", (() => { const b = Buffer.from(good); b[6] = 0; return b; })(), /0xFF/],
    ["a wrong checksum", (() => { const b = Buffer.from(good); b[2] = b[2]! ^ 1; return b; })(), /wrong checksum/],
    ["a wrong byte in the payload", (() => { const b = Buffer.from(good); b[10] = 0x21; return b; })(), /wrong checksum/],
    ["an unknown type", encodePacket(Buffer.from([0x07, 1])), /unknown type 0x07/],
    ["a login reply with more bytes", encodePacket(Buffer.from([0x00, 0x01, 0x01])), /login reply/],
    ["a login reply of 2", encodePacket(Buffer.from([0x00, 0x02])), /login reply/],
    ["a command reply without a sequence", encodePacket(Buffer.from([0x01])), /without a sequence/],
    ["a part header cut short", encodePacket(Buffer.from([0x01, 5, 0x00, 2])), /cut short/],
    ["a reply of 0 parts", encodePacket(Buffer.from([0x01, 5, 0x00, 0, 0])), /0 parts/],
    ["part 3 of 3", encodePacket(Buffer.from([0x01, 5, 0x00, 3, 3])), /part 3 of 3/],
    ["a message without a sequence", encodePacket(Buffer.from([0x02])), /without a sequence/],
    ["a packet over the limit", encodeServerMessage(1, "x".repeat(DEFAULT_LIMITS.maxPacketBytes)), /more than 16384/],
  ];
  for (const [name, buf, reason] of cases) {
    test(name, () => {
      const d = decodeServerPacket(buf);
      expect(d.ok).toBe(false);
      if (!d.ok) expect(d.reason).toMatch(reason);
    });
  }

  test("garbage of every length from 0 to 64 bytes is refused, never thrown", () => {
    for (let n = 0; n <= 64; n++) {
      const junk = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff));
      expect(decodeServerPacket(junk).ok).toBe(false);
      expect(decodeClientPacket(junk).ok).toBe(false);
    }
  });

  test("the limit is configurable", () => {
    const d = decodeServerPacket(encodeServerMessage(1, "x".repeat(100)), limitsWith({ maxPacketBytes: 64 }));
    expect(d.ok ? null : d.reason).toBe("a packet of 109 bytes (more than 64)");
  });
});

describe("multi-part answers", () => {
  const body = Array.from({ length: 40 }, (_, i) => `${i + 1} ; uid-${i} ; Name ${i}`).join("\n");

  test("split in parts of at most partBytes and joined back in any order (bytes joined before decoding)", () => {
    const text = `${body}\nÜnïcödé splits across parts: ${"é".repeat(50)}`;
    const parts = encodeCommandReplyParts(9, text, 64).map((p) => decodeServerPacket(p));
    expect(parts.length).toBeGreaterThan(5);
    const a = new PartAssembler();
    let done: Buffer | null = null;
    for (const d of [...parts].reverse()) {
      if (!d.ok || d.packet.type !== "command" || !d.packet.part) throw new Error("not a part");
      expect(d.packet.body.length).toBeLessThanOrEqual(64);
      const r = a.add(d.packet.part, d.packet.body);
      if (r.state === "done") done = r.body;
    }
    expect(done?.toString("utf8")).toBe(text);
  });

  test("a short answer is one plain reply; one starting with NUL gets the part header so it is not misread", () => {
    expect(encodeCommandReplyParts(1, "short", 64)).toEqual([encodeCommandReply(1, "short")]);
    const nul = encodeCommandReplyParts(1, "\0x", 64);
    const d = decodeServerPacket(nul[0]!);
    expect(d.ok && d.packet.type === "command" ? [d.packet.part, d.packet.body.toString()] : null).toEqual([{ total: 1, index: 0 }, "\0x"]);
  });

  test("a part sent twice is taken once; a part that changes the count, too many parts or too many bytes refuse the answer", () => {
    const a = new PartAssembler();
    expect(a.add({ total: 2, index: 0 }, Buffer.from("a"))).toEqual({ state: "pending" });
    expect(a.add({ total: 2, index: 0 }, Buffer.from("a"))).toEqual({ state: "pending" });
    expect(a.add({ total: 3, index: 1 }, Buffer.from("b"))).toEqual({ state: "refused", reason: "a part says the answer has 3 parts, an earlier one 2" });
    expect(new PartAssembler(limitsWith({ maxParts: 4 })).add({ total: 5, index: 0 }, Buffer.from("x"))).toEqual({ state: "refused", reason: "an answer in 5 parts (more than 4)" });
    const small = new PartAssembler(limitsWith({ maxAnswerBytes: 10 }));
    expect(small.add({ total: 3, index: 0 }, Buffer.alloc(6))).toEqual({ state: "pending" });
    expect(small.add({ total: 3, index: 2 }, Buffer.alloc(6))).toEqual({ state: "refused", reason: "an answer of more than 10 bytes" });
  });
});
