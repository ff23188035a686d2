// serverBase's last_updated keeps the last sighting it formatted (a build formats ~15,000, nearly
// all one scan's time): every answer is still that time's ISO text.
import { describe, expect, test } from "bun:test";
import { serverBase, type ServerBaseRow } from "./entry";

describe("serverBase", () => {
  test("last_updated is the sighting's ISO time, repeated, alternating or new", () => {
    const row = (ms: number): ServerBaseRow => ({
      id: "x", name: "n", host_address: "h:1", player_count: 0, player_count_limit: 1, queue_players_count: 0,
      scenario_name: "", game_version: "", password_protected: 0 as any, official: 1 as any, last_seen_at: ms,
    });
    const times = [Date.UTC(2026, 10, 27, 12), Date.UTC(2026, 10, 27, 12), Date.UTC(2026, 10, 27, 12, 5), Date.UTC(2026, 10, 27, 12), 0, 0, -1, 1, 8.64e15];
    for (const ms of times) expect(serverBase(row(ms)).last_updated).toBe(new Date(ms).toISOString());
    expect(() => serverBase(row(8.64e15 + 1))).toThrow(RangeError);
    expect(serverBase(row(5)).last_updated).toBe(new Date(5).toISOString());
  });
});
