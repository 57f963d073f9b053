import { i18n } from "@lingui/core";
import { Trans } from "@lingui/react/macro";
import { ArrowRight, Calendar, Mail, Phone, Truck, Weight } from "lucide-react";
import type { ReactNode } from "react";
import type { TBoardLoadItem, TPublicLoad } from "../../lib/api-types";
import { cn } from "../../lib/utils";
import { Badge } from "../ui/badge";
import { Card } from "../ui/card";
import { DistanceBadge, InvitedBadge, LoadStatusBadge, SourceBadge } from "./badges";
import { EquipmentLabel } from "./equipment-label";
import { LoadRate, LoadTitleLink, LoadWhen, TripMiles, WeightLbs } from "./load-cells";
import { PendingBadge } from "./pending-badge";
import { ShareMenu } from "./share-menu";

export const shareContentFor = (load: Pick<TPublicLoad, "id" | "title" | "pickupLocation" | "deliveryLocation">) => ({
  title: `${load.title} · MyTess`,
  description: `${load.pickupLocation} → ${load.deliveryLocation}`,
  // The link's language: the card a chat app shows for it (server-rendered tags) is in the sharer's language.
  url: `${window.location.origin}/loads/${load.id}?lang=${i18n.locale || "en"}`,
  hashtags: ["MyTess", "freight", "loadboard"],
});

/** Which board an external load came from: its name, Sandbox for emulators and test hosts, and DAT's attribution. */
export function BoardBadges({ board }: { board: NonNullable<TBoardLoadItem["board"]> }) {
  return (
    <>
      <Badge variant="secondary" data-testid="board-name">
        {board.name}
      </Badge>
      {board.sandbox && (
        <Badge variant="warning" data-testid="sandbox-badge">
          <Trans comment="Badge on a board or its loads: test data from the board's test system (sandbox), not real loads">
            Sandbox
          </Trans>
        </Badge>
      )}
      {board.poweredBy && (
        <span className="text-xs font-semibold text-muted-foreground" data-testid="powered-by">
          <Trans comment="Load card from an outside board: the board's name ({0}) credited as its source">
            Powered by {board.poweredBy}
          </Trans>
        </span>
      )}
    </>
  );
}

/** The poster of an external load, as the board gives them: external loads are booked by calling, not by bidding. */
export function PosterContact({ contact }: { contact: NonNullable<TPublicLoad["source"]["contact"]> }) {
  const who = [contact.company, contact.name].filter(Boolean).join(" · ");
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="poster-contact">
      {who && <span className="font-medium">{who}</span>}
      {contact.mcNumber && <span className="text-muted-foreground">MC {contact.mcNumber}</span>}
      {contact.phone && (
        <a
          href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}
          className="flex items-center gap-1 text-brand hover:underline"
        >
          <Phone className="size-4" />
          {contact.phone}
        </a>
      )}
      {contact.email && (
        <a href={`mailto:${contact.email}`} className="flex items-center gap-1 text-brand hover:underline">
          <Mail className="size-4" />
          {contact.email}
        </a>
      )}
    </div>
  );
}

/** A load on the board: source, distance to pickup, route, dates, equipment, weight, budget and rate per mile. */
export function LoadCard({
  load,
  actions,
  highlighted,
}: {
  load: TPublicLoad & { board?: TBoardLoadItem["board"]; invited?: boolean };
  actions?: ReactNode;
  highlighted?: boolean;
}) {
  const external = load.source.type === "external";
  return (
    <Card
      id={`load-${load.id}`}
      data-testid="load-card"
      data-load-id={load.id}
      className={cn("p-4 transition", highlighted && "ring-4 ring-brand/60")}
    >
      <div className="flex flex-wrap items-center gap-2">
        <SourceBadge type={load.source.type} />
        {load.board && <BoardBadges board={load.board} />}
        <DistanceBadge miles={load.distance} />
        <InvitedBadge invited={load.invited} />
        {load.isUrgent && (
          <Badge variant="destructive">
            <Trans comment="Badge on a load whose pickup is soon">Urgent</Trans>
          </Badge>
        )}
        {load.status !== "posted" && <LoadStatusBadge status={load.status} />}
        <PendingBadge loadId={load.id} />
      </div>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <LoadTitleLink load={load} className="font-semibold" />
          <div className="mt-1 flex flex-wrap items-center gap-1.5 text-sm">
            {/* The board's main content for bench/cold-start.ts (Element Timing): the first card's route painted. */}
            <span elementtiming="main-content">{load.pickupLocation}</span>
            <ArrowRight className="size-4 text-muted-foreground" />
            <span>{load.deliveryLocation}</span>
          </div>
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <span className="flex items-center gap-1">
              <Calendar className="size-4" />
              <LoadWhen iso={load.pickupDate} />
            </span>
            <span className="flex items-center gap-1">
              <Truck className="size-4" />
              <EquipmentLabel type={load.equipmentType} />
            </span>
            <span className="flex items-center gap-1">
              <Weight className="size-4" />
              <WeightLbs lbs={load.weight} />
            </span>
            <span>
              <TripMiles tripMiles={load.tripMiles} />
            </span>
          </div>
        </div>
        <div className="shrink-0 text-left sm:text-right">
          <LoadRate load={load} className="text-xl" />
        </div>
      </div>
      {external && load.source.contact && (
        <div className="mt-3 border-t pt-3">
          <PosterContact contact={load.source.contact} />
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
        {!external && <ShareMenu content={shareContentFor(load)} />}
        {actions}
      </div>
    </Card>
  );
}
