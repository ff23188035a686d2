// The A2S client against a local responder that misbehaves the ways a real network does (issue
// 24): stray packets before the real reply, a reply from another port, split replies in both forms
// and any order, the compressed form, repeated challenges. The scan's use of the client is tested
// in sources.test.ts.
import { afterEach, describe, expect, test } from "bun:test";
import { startA2sResponder, type A2sBehaviour, type A2sMode, type A2sResponder } from "../../../test/fakes/a2s";
import { A2sError, A2sTimeoutError, queryInfo } from "./a2s";

const responders: A2sResponder[] = [];
afterEach(() => {
  for (const r of responders.splice(0)) r.close();
});

// Long keywords make a reply of ~1.6 KB: a real reason to split it.
const KEYWORDS = Array.from({ length: 200 }, (_, i) => `tag${i}`).join(",");
const info = { name: "Split Server", map: "Arland", players: 33, maxPlayers: 128, version: "1.3.0.140", gamePort: 2302, keywords: KEYWORDS };
const expected = { address: "127.0.0.1", name: "Split Server", map: "Arland", players: 33, max_players: 128, version: "1.3.0.140", game_port: 2302, keywords: KEYWORDS };

async function responder(mode: A2sMode, behaviour: A2sBehaviour = {}) {
  const r = await startA2sResponder(info, mode, behaviour);
  responders.push(r);
  return r;
}

describe("only the address and port asked", () => {
  for (const stray of ["other-port", "wrong-header", "garbage", "truncated-info"] as const) {
    test(`a stray packet first (${stray}) is skipped and the real reply still read`, async () => {
      const r = await responder("direct", { strayFirst: stray });
      expect(await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 })).toEqual({ ...expected, password: false, bots: 0, folder: "ArmaReforger", game: "Arma Reforger", vac: false });
    });
  }

  test("a reply from another port is never taken: the query times out and says what it skipped", async () => {
    const r = await responder("direct", { replyFromOtherPort: true });
    const err = await queryInfo("127.0.0.1", r.port, { timeoutMs: 400 }).catch((e) => e);
    expect(err).toBeInstanceOf(A2sTimeoutError);
    expect(err.message).toContain(`1 unusable packet skipped, the last: a packet from 127.0.0.1:${r.otherPort}`);
  });

  test("a stray then the real reply after challenges: the challenge is still answered", async () => {
    const r = await responder("challenge", { strayFirst: "other-port", challengeRounds: 2 });
    expect(await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 })).toMatchObject(expected);
    expect(r.requests).toEqual([{ challenged: false }, { challenged: true }, { challenged: true }]);
  });
});

describe("split replies", () => {
  const cases: [string, NonNullable<A2sBehaviour["split"]>][] = [
    ["Source form, in order", { parts: 3, form: "source" }],
    ["Source form, shuffled", { parts: 5, form: "source", shuffleSeed: 7 }],
    ["Source form without the size field, shuffled", { parts: 4, form: "source-no-size", shuffleSeed: 3 }],
    ["GoldSrc form, in order", { parts: 3, form: "goldsrc" }],
    ["GoldSrc form, shuffled", { parts: 6, form: "goldsrc", shuffleSeed: 11 }],
  ];
  for (const [name, split] of cases) {
    test(`${name}: reassembled`, async () => {
      const r = await responder("direct", { split });
      expect(await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 })).toMatchObject(expected);
    });
  }

  test("shuffled split reply after a challenge, with a stray first", async () => {
    const r = await responder("challenge", { split: { parts: 4, form: "source", shuffleSeed: 5 }, strayFirst: "garbage" });
    expect(await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 })).toMatchObject(expected);
  });

  test("the compressed Source form (bzip2) is refused by name", async () => {
    const r = await responder("direct", { split: { parts: 2, form: "source", compressed: true, shuffleSeed: 1 } });
    const err = await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 }).catch((e) => e);
    expect(err).toBeInstanceOf(A2sError);
    expect(err).not.toBeInstanceOf(A2sTimeoutError);
    expect(err.message).toBe(`A2S reply from 127.0.0.1:${r.port} is a compressed split reply (bzip2), which this client does not decompress`);
  });
});

describe("challenges", () => {
  test("up to three challenge rounds are answered", async () => {
    const r = await responder("challenge", { challengeRounds: 3 });
    expect(await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 })).toMatchObject(expected);
    expect(r.requests).toEqual([{ challenged: false }, { challenged: true }, { challenged: true }, { challenged: true }]);
  });

  test("a fourth challenge ends the query", async () => {
    const r = await responder("challenge", { challengeRounds: 4 });
    const err = await queryInfo("127.0.0.1", r.port, { timeoutMs: 3000 }).catch((e) => e);
    expect(err).toBeInstanceOf(A2sError);
    expect(err.message).toBe(`A2S server 127.0.0.1:${r.port} keeps answering with challenges`);
    expect(r.requests).toHaveLength(4);
  });
});

test("a host name is resolved once and the reply must come from that address", async () => {
  const r = await responder("direct");
  expect(await queryInfo("localhost", r.port, { timeoutMs: 3000 }).catch((e) => e)).toMatchObject({ name: "Split Server" });
});
