// Waiting on a condition instead of a fixed time: a test that sleeps "long enough" passes on a
// quiet machine and fails on a busy one (the CI that runs two suites at once, a slow start of a
// child process); one that polls for what it needs passes on both, and says what it waited for
// when the thing never comes.

/**
 * Polls `fn` every `everyMs` until it returns something truthy (which it returns); throws
 * `timed out waiting for <what>` after `timeoutMs`. Keep `timeoutMs` under the test's own
 * timeout (30 s unless the test gives one), so the failure names the condition.
 */
export async function until<T>(what: string, fn: () => T | null | undefined | false | Promise<T | null | undefined | false>, timeoutMs = 20_000, everyMs = 20): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}
