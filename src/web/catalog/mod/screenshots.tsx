// The Screenshots tab: the workshop's pictures, each a link to its full size.
import { useQuery } from "@tanstack/react-query";
import { safeHref } from "../../app/format";
import { Empty, ErrorMessage, RemoteImage, Skeleton } from "../../ui/components";
import { modScreenshots } from "../catalog.services";
import type { ModTabProps } from "./tab";

export default function Screenshots({ id }: ModTabProps) {
  const s = useQuery({ queryKey: ["mod-shots", id], queryFn: ({ signal }) => modScreenshots(id, signal) });
  if (s.isLoading) return <Skeleton />;
  if (s.error) return <ErrorMessage error={s.error} retry={() => s.refetch()} />;
  if (s.data!.length === 0) return <Empty title="No screenshots" />;
  return (
    <section className="gallery" aria-label="Screenshots">
      {s.data!.map((x, i) =>
        safeHref(x.url) ? (
          <a key={x.url} href={safeHref(x.url)} rel="noopener noreferrer" target="_blank">
            <RemoteImage src={x.url} alt={`Screenshot ${i + 1} (opens full size)`} width={x.width ?? 320} height={x.height ?? 180} lazy />
          </a>
        ) : null,
      )}
    </section>
  );
}
