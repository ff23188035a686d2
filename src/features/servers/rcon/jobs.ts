// The retention of players' sessions on own servers (LOADOUT_PLAYER_RETENTION_DAYS), pruned daily.
import type { Deps } from "../../../deps";
import type { JobHandler } from "../../../jobs/queue";
import type { ScheduleSpec } from "../../feature-module";
import { pruneSessions } from "./repository";

export const JOB_PLAYERS_PRUNE = "players.prune";

export const rconJobs = (deps: Deps): Record<string, JobHandler> => ({
  [JOB_PLAYERS_PRUNE]: {
    run: () => pruneSessions(deps.sqlite, deps.clock.now() - deps.config.LOADOUT_PLAYER_RETENTION_DAYS * 86_400_000),
  },
});

export const rconSchedules = (deps: Deps): ScheduleSpec[] => [
  { name: JOB_PLAYERS_PRUNE, cron: "17 4 * * *", enqueue: () => void deps.jobs.enqueue(JOB_PLAYERS_PRUNE, {}, { dedupeKey: JOB_PLAYERS_PRUNE }) },
];
