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

describe("log lines", () => {
  test("plain fields and errors at any depth are written as JSON, keys in order, one time stamp format", () => {
    const lines: string[] = [];
    const log = createLogger("info", { service: "x" }, (l) => lines.push(l));
    log.info("request", { request_id: "r1", method: "GET", path: "/a", status: 200, ms: 1.5, gone: undefined });
    log.warn("nested", { error: { cause: new Error("boom") } });
    log.child({ job: { id: 7 } }).info("child", { n: 1 });
    const [a, b, c] = lines.map((l) => JSON.parse(l));
    expect(Object.keys(a)).toEqual(["time", "level", "msg", "service", "request_id", "method", "path", "status", "ms"]);
    expect(a.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(a).toMatchObject({ level: "info", msg: "request", service: "x", request_id: "r1", status: 200, ms: 1.5 });
    expect(b.error.cause).toMatchObject({ name: "Error", message: "boom" });
    expect(c).toMatchObject({ msg: "child", service: "x", job: { id: 7 }, n: 1 });
  });
});
