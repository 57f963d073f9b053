import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";

/**
 * A position as people say it ("20 km northeast of Adama", in the reader's unit), from the server's gazetteer; the coordinates while it loads or
 * when no known town is near, and always in the tooltip.
 */
export function PlaceName({ latitude, longitude }: { latitude: number; longitude: number }) {
  const { t } = useLingui();
  const { formatDistance } = usePreferences();
  // Rounded so that a truck moving a few metres does not ask again.
  const at = { latitude: Math.round(latitude * 100) / 100, longitude: Math.round(longitude * 100) / 100 };
  const near = useQuery(trpc.places.near.queryOptions(at, { staleTime: Number.POSITIVE_INFINITY }));
  const coordinates = `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`;
  const p = near.data;
  if (!p) return <span title={coordinates}>{coordinates}</span>;
  const directions = {
    N: t({ message: "north", comment: "Compass direction in a place name (“20 km north of Adama”)" }),
    NE: t({ message: "northeast", comment: "Compass direction in a place name (“20 km northeast of Adama”)" }),
    E: t({ message: "east", comment: "Compass direction in a place name (“20 km east of Adama”)" }),
    SE: t({ message: "southeast", comment: "Compass direction in a place name (“20 km southeast of Adama”)" }),
    S: t({ message: "south", comment: "Compass direction in a place name (“20 km south of Adama”)" }),
    SW: t({ message: "southwest", comment: "Compass direction in a place name (“20 km southwest of Adama”)" }),
    W: t({ message: "west", comment: "Compass direction in a place name (“20 km west of Adama”)" }),
    NW: t({ message: "northwest", comment: "Compass direction in a place name (“20 km northwest of Adama”)" }),
  } as const;
  const town = p.town;
  const distance = formatDistance(p.distanceMiles, 0);
  const label = p.direction
    ? t({
        message: `${distance} ${directions[p.direction]} of ${town}`,
        comment:
          "Place name on a load: {distance} (a number with its unit, 20 km) in a compass direction ({0}, e.g. north) from the town {town}",
      })
    : t({ message: `In ${town}`, comment: "Place name on a load: in the town {town}" });
  return (
    <span title={coordinates} data-testid="place-name">
      {label}
    </span>
  );
}
