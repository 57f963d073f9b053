import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { Mail, Phone } from "lucide-react";
import type { TPublicLoad } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { BudgetAmount } from "./budget-amount";

// The pieces of a load that its card and its table row both show, written once.

type TLoadBits = Pick<TPublicLoad, "id" | "title">;

/** The load's title: a link to its page when it has one (a live board's load has none: id 0). Weight from the caller. */
export function LoadTitleLink({ load, className }: { load: TLoadBits; className?: string }) {
  return load.id > 0 ? (
    <Link to="/loads/$id" params={{ id: String(load.id) }} className={cn("hover:underline", className)}>
      {load.title}
    </Link>
  ) : (
    <span className={className}>{load.title}</span>
  );
}

/**
 * The budget in the viewer's currency with the rate per mile or per kilometre (the reader's units); an external load
 * posted without a rate says so.
 */
export function LoadRate({
  load,
  className,
}: {
  load: Pick<TPublicLoad, "budgetAmount" | "budgetCurrency" | "ratePerMile" | "source">;
  className?: string;
}) {
  const { formatRatePerDistance } = usePreferences();
  if (load.source.type === "external" && load.budgetAmount === 0)
    return (
      <span className="text-sm text-muted-foreground" data-testid="load-budget">
        <Trans>Rate not posted</Trans>
      </span>
    );
  return (
    <BudgetAmount
      amount={load.budgetAmount}
      currency={load.budgetCurrency}
      className={className}
      testId="load-budget"
      extra={
        <span data-testid="load-rate-per-distance">{formatRatePerDistance(load.ratePerMile, load.budgetCurrency)}</span>
      }
    />
  );
}

/** A pickup or delivery time as the card shows it: date and time in the viewer's calendar. */
export function LoadWhen({ iso, className }: { iso: string; className?: string }) {
  const { formatDate } = usePreferences();
  return <span className={className}>{formatDate(iso, { dateStyle: "medium", timeStyle: "short" })}</span>;
}

/** The trip's length in the reader's unit ("120 km trip"). */
export function TripMiles({ tripMiles }: { tripMiles: number }) {
  const { formatDistance } = usePreferences();
  const distance = formatDistance(tripMiles, 0);
  return (
    <Trans comment="Load cards: length of the trip from pickup to delivery; {distance} is a number with its unit (120 km)">
      {distance} trip
    </Trans>
  );
}

/** A load's weight (stored in pounds) in the reader's unit: tonnes or kilograms, or pounds. */
export function WeightLbs({ lbs }: { lbs: number }) {
  const { formatWeight } = usePreferences();
  return <span data-testid="load-weight">{formatWeight(lbs)}</span>;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago a load was posted ("Posted 3 hours ago"), the exact time in the tooltip. Lingui plurals rather than
 * Intl.RelativeTimeFormat: browsers carry no Afaan Oromo data for it and fall back to English.
 */
export function LoadAge({ iso, now = Date.now(), compact }: { iso: string; now?: number; compact?: boolean }) {
  const { formatDate } = usePreferences();
  const ago = Math.max(0, now - Date.parse(iso));
  const minutes = Math.floor(ago / MINUTE);
  const hours = Math.floor(ago / HOUR);
  const days = Math.floor(ago / DAY);
  return (
    <span
      className="text-xs text-muted-foreground"
      title={formatDate(iso, { dateStyle: "medium", timeStyle: "short" })}
      data-testid="load-age"
    >
      {compact ? (
        days > 0 ? (
          <Plural value={days} one="# day" other="# days" />
        ) : hours > 0 ? (
          <Plural value={hours} one="# hr" other="# hrs" />
        ) : minutes > 0 ? (
          <Plural value={minutes} one="# min" other="# min" />
        ) : (
          <Trans comment="A load's age in the board's table: posted less than a minute ago">now</Trans>
        )
      ) : days > 0 ? (
        <Plural value={days} one="Posted # day ago" other="Posted # days ago" />
      ) : hours > 0 ? (
        <Plural value={hours} one="Posted # hour ago" other="Posted # hours ago" />
      ) : minutes > 0 ? (
        <Plural value={minutes} one="Posted # minute ago" other="Posted # minutes ago" />
      ) : (
        <Trans>Posted just now</Trans>
      )}
    </span>
  );
}

/** An external load is booked by calling its poster: a compact call (or mail) link for a table row. */
export function PosterCallLink({ contact }: { contact: NonNullable<TPublicLoad["source"]["contact"]> }) {
  const { t } = useLingui();
  const who = [contact.company, contact.name].filter(Boolean).join(" · ");
  const details = [who, contact.mcNumber && `MC ${contact.mcNumber}`, contact.phone, contact.email]
    .filter(Boolean)
    .join(" · ");
  const cls =
    "inline-flex h-8 items-center gap-1.5 rounded-md border bg-white px-2.5 text-xs font-medium text-brand hover:bg-muted max-sm:h-11";
  // A phone is called, else an email written; the poster gets no other way (bids are not taken on external loads).
  const link = contact.phone
    ? {
        href: `tel:${contact.phone.replace(/[^\d+]/g, "")}`,
        label: who
          ? t({
              message: `Call ${who}`,
              comment: "Screen-reader label of the call button: phone {who}, who posted the load",
            })
          : t`Call the poster`,
        icon: <Phone className="size-3.5" />,
        text: <Trans comment="Button on an outside board's load: phone the person who posted it">Call</Trans>,
      }
    : contact.email
      ? {
          href: `mailto:${contact.email}`,
          label: who
            ? t({
                message: `Email ${who}`,
                comment: "Screen-reader label of the email button: write an email to {who}, who posted the load",
              })
            : t`Email the poster`,
          icon: <Mail className="size-3.5" />,
          text: (
            <Trans comment="Label of the email field (sign in, sign up); also a button on a load to email its poster">
              Email
            </Trans>
          ),
        }
      : null;
  if (!link) return null;
  return (
    <a href={link.href} className={cls} title={details} aria-label={link.label} data-testid="call-poster">
      {link.icon}
      {link.text}
    </a>
  );
}
