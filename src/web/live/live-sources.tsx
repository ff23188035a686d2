// An empty live list says why: the live sources' last outcome (GET /health), e.g. BattleMetrics
// refusing without a paid subscription, or registered servers not answering over A2S.
import { useQuery } from "@tanstack/react-query";
import { dateTime } from "../app/format";
import { healthQuery } from "../app/platform.services";
import { Empty, Notice } from "../ui/components";

export function NoLiveServers({ filtered }: { filtered: boolean }) {
  const health = useQuery({ ...healthQuery(), enabled: !filtered, refetchInterval: 30_000 });
  if (filtered) return <Empty title="No server matches">Loosen a filter, or clear them.</Empty>;
  const s = health.data?.sources;
  return (
    <Empty title="No server has reported in the last hour">
      <p>The live scan asks the public server list and your registered servers every few minutes; the next one fills this page.</p>
      {s?.live.last_error && (
        <Notice kind="warn">
          Public servers{s.live.last_error_at ? ` (${dateTime(s.live.last_error_at)})` : ""}: {s.live.last_error}
        </Notice>
      )}
      {s?.a2s.last_error && (
        <Notice kind="warn">
          Registered servers{s.a2s.last_error_at ? ` (${dateTime(s.a2s.last_error_at)})` : ""}: {s.a2s.last_error}
        </Notice>
      )}
    </Empty>
  );
}
