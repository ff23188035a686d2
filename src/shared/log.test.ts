// The stdout writer batches the lines of one event-loop turn into one write, keeps their order,
// and writes warnings and errors at once (with what was pending before them).
import { describe, expect, test } from "bun:test";
import { batchedStdout, createLogger } from "./log";

describe("batched stdout", () => {
  test("a turn's lines go out in one write, in order; the next turn's in the next", async () => {
    const writes: string[] = [];
    const write = batchedStdout({ write: (s: string) => writes.push(s) });
    const log = createLogger("info", {}, write);
    log.info("one", { n: 1 });
    log.info("two", { n: 2 });
    log.debug("not at this level");
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n").filter(Boolean).map((l) => JSON.parse(l).msg)).toEqual(["one", "two"]);
    log.info("three");
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
    expect(JSON.parse(writes[1]!).msg).toBe("three");
  });

  test("a warning or an error is written at once, after what was pending", () => {
    const writes: string[] = [];
    const log = createLogger("info", {}, batchedStdout({ write: (s: string) => writes.push(s) }));
    log.info("before");
    log.error("failed", { error: new Error("boom") });
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([["info", "before"], ["error", "failed"]]);
    expect(lines[1].error.message).toBe("boom");
  });
});
