import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { trpc } from "../../lib/trpc";

/**
 * A position as people say it ("12 mi NE of Adama"), from the server's gazetteer; the coordinates while it loads or
 * when no known town is near, and always in the tooltip.
 */
export function PlaceName({ latitude, longitude }: { latitude: number; longitude: number }) {
  const { t } = useLingui();
  // Rounded so that a truck moving a few metres does not ask again.
  const at = { latitude: Math.round(latitude * 100) / 100, longitude: Math.round(longitude * 100) / 100 };
  const near = useQuery(trpc.places.near.queryOptions(at, { staleTime: Number.POSITIVE_INFINITY }));
  const coordinates = `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`;
  const p = near.data;
  if (!p) return <span title={coordinates}>{coordinates}</span>;
  const directions = {
    N: t`north`,
    NE: t`northeast`,
    E: t`east`,
    SE: t`southeast`,
    S: t`south`,
    SW: t`southwest`,
    W: t`west`,
    NW: t`northwest`,
  } as const;
  const town = p.town;
  const miles = p.distanceMiles;
  const label = p.direction ? t`${miles} mi ${directions[p.direction]} of ${town}` : t`In ${town}`;
  return (
    <span title={coordinates} data-testid="place-name">
      {label}
    </span>
  );
}
