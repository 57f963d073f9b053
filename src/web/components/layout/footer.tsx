import { Trans } from "@lingui/react/macro";
import { Link, type LinkProps } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { CalendarSelect } from "./calendar-select";
import { UnitsSelect } from "./units-select";

/** A link of the app, or (`href`) a page the server serves itself, as the API reference. */
type TFooterLink = { to: LinkProps["to"]; label: ReactNode } | { href: string; label: ReactNode };

/** A footer column: a heading over a list of links. */
function LinkColumn({ title, links }: { title: ReactNode; links: TFooterLink[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold">{title}</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {links.map((l) => (
          <li key={"href" in l ? l.href : l.to}>
            {"href" in l ? (
              <a href={l.href} className="hover:underline">
                {l.label}
              </a>
            ) : (
              <Link to={l.to} className="hover:underline">
                {l.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="mt-16 border-t bg-white">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-5">
        <div>
          <div className="text-lg font-bold text-brand">MyTess</div>
          <p className="mt-2 text-sm text-muted-foreground">
            <Trans>The freight marketplace for drivers and shippers, from Addis Ababa to the world.</Trans>
          </p>
        </div>
        <LinkColumn
          title={
            <Trans comment="Footer column heading (the MyTess service's pages) and label of the e-commerce platform choice (Shopify, Amazon, Alibaba)">
              Platform
            </Trans>
          }
          links={[
            {
              to: "/driver",
              label: (
                <Trans comment="Footer link and page title: the driver's home page (dashboard)">Driver dashboard</Trans>
              ),
            },
            {
              to: "/shipper",
              label: (
                <Trans comment="Footer link and page title: the shipper's home page (dashboard)">
                  Shipper dashboard
                </Trans>
              ),
            },
            {
              to: "/loads",
              label: (
                <Trans comment="Footer/menu link and card title: the board that lists all posted loads (freight offers)">
                  Load board
                </Trans>
              ),
            },
          ]}
        />
        <LinkColumn
          title={<Trans comment="Footer column heading: help links (contact, premium plan)">Support</Trans>}
          links={[
            {
              to: "/contact",
              label: <Trans comment="Footer link, page title and heading of the contact page">Contact us</Trans>,
            },
            {
              to: "/subscribe",
              label: (
                <Trans comment="Footer link and browser tab title: the page about the paid plan">Premium plan</Trans>
              ),
            },
            { to: "/promotion", label: <Trans>Spread the word</Trans> },
            {
              href: "/api/docs",
              label: <Trans comment="Link to the API's reference documentation page">API reference</Trans>,
            },
          ]}
        />
        <LinkColumn
          title={<Trans comment="Footer column heading: links about the company (About, Contact)">Company</Trans>}
          links={[
            {
              to: "/about",
              label: (
                <Trans comment="Footer link, page title and heading of the page that explains what MyTess is">
                  About MyTess
                </Trans>
              ),
            },
            { to: "/terms", label: <Trans>Terms of use</Trans> },
            {
              to: "/privacy",
              label: (
                <Trans comment="Footer link, page title: the privacy notice (what data MyTess keeps)">Privacy</Trans>
              ),
            },
          ]}
        />
        <div>
          <h2 className="text-sm font-semibold">
            <Trans comment="Footer heading above the language choice">Languages</Trans>
          </h2>
          <p className="mt-2 text-sm text-muted-foreground" data-testid="footer-languages">
            <Trans>MyTess is available in English, Amharic (አማርኛ) and Afaan Oromo.</Trans>
          </p>
          {/* Everyone can choose the calendar, signed in or not (a device without an account keeps it locally). */}
          <label className="mt-3 grid gap-1 text-sm" htmlFor="footer-calendar">
            <span className="font-semibold">
              <Trans comment="Footer label and settings card title: choice between the Gregorian and Ethiopian calendar for dates">
                Calendar
              </Trans>
            </span>
            <CalendarSelect id="footer-calendar" className="w-48" />
          </label>
          <label className="mt-3 grid gap-1 text-sm" htmlFor="footer-units">
            <span className="font-semibold">
              <Trans comment="Settings card title and footer label: the choice of kilometres and kilograms or miles and pounds">
                Units
              </Trans>
            </span>
            <UnitsSelect id="footer-units" className="w-48" />
          </label>
        </div>
      </div>
      <div className="border-t py-4 text-center text-xs text-muted-foreground">
        <Trans>© {year} MyTess. All rights reserved.</Trans>
      </div>
    </footer>
  );
}
