// The start's log line says where to open the service: this machine's own name when it listens
// on every interface (the README's http://localhost:8080), else the address it listens on.
import { describe, expect, test } from "bun:test";
import { openUrl } from "./server";

describe("openUrl", () => {
  test("every interface opens as localhost; a given address as itself", () => {
    expect(openUrl("0.0.0.0", 8080)).toBe("http://localhost:8080");
    expect(openUrl("::", 8080)).toBe("http://localhost:8080");
    expect(openUrl("127.0.0.1", 9000)).toBe("http://127.0.0.1:9000");
    expect(openUrl("::1", 9000)).toBe("http://[::1]:9000");
    expect(openUrl("mods.example.org", 80)).toBe("http://mods.example.org:80");
  });
});
