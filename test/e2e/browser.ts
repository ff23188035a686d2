// What the server pages' browser tests (web-deploy, web-players) share: JSON calls to the binary,
// axe-core on a page, and the photographs of a page light and dark at 1440 and 360 px.
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** A JSON call to the service at `base`: its status and parsed body. */
export async function apiCall(base: string, method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as any };
}

/** axe-core on the page as it is now; serious and critical findings fail the test, the others go to `findings`. */
export async function axe(page: Page, name: string, findings: string[]) {
  // Evaluated through DevTools, so the page's CSP (no inline script) stays as it is.
  await page.evaluate(AXE + ";0");
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] })`)) as {
    violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  };
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  for (const v of result.violations) findings.push(`${name}: ${v.impact} ${v.id} (${v.nodes.length})`);
  expect({ page: name, violations: bad.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`) }).toEqual({ page: name, violations: [] });
}

/**
 * Screenshots light and dark at 1440 and 360 px wide into `artifacts` (no sideways scrolling at
 * 360, no clipped table at 1440), then axe in both schemes.
 */
export async function look(page: Page, name: string, artifacts: string, findings: string[]) {
  await page.waitForLoadState("networkidle");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.screenshot({ path: join(artifacts, `${name}-${scheme}-${width}.png`), fullPage: true });
      const overflow = await page.evaluate(`(() => {
        const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= w) return [];
        return [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > w + 0.5))
          .slice(0, 5)
          .map((e) => e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ").join(".") : "") + " " + Math.round(e.getBoundingClientRect().right));
      })()`);
      expect({ page: name, width, overflow }).toEqual({ page: name, width, overflow: [] });
      if (width === 1440) {
        const clipped = await page.evaluate(`[...document.querySelectorAll(".table-wrap")]
          .filter((e) => e.scrollWidth > e.clientWidth + 1)
          .map((e) => (e.querySelector("caption")?.textContent ?? "table") + " " + e.scrollWidth + ">" + e.clientWidth)`);
        expect({ page: name, width, clipped }).toEqual({ page: name, width, clipped: [] });
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await axe(page, `${name} (${scheme})`, findings);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
