import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { CalendarSelect } from "./calendar-select";

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
        <div>
          <h2 className="text-sm font-semibold">
            <Trans>Platform</Trans>
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            <li>
              <Link to="/driver" className="hover:underline">
                <Trans>Driver dashboard</Trans>
              </Link>
            </li>
            <li>
              <Link to="/shipper" className="hover:underline">
                <Trans>Shipper dashboard</Trans>
              </Link>
            </li>
            <li>
              <Link to="/loads" className="hover:underline">
                <Trans>Load board</Trans>
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold">
            <Trans>Support</Trans>
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            <li>
              <Link to="/contact" className="hover:underline">
                <Trans>Contact us</Trans>
              </Link>
            </li>
            <li>
              <Link to="/subscribe" className="hover:underline">
                <Trans>Premium plan</Trans>
              </Link>
            </li>
            <li>
              <Link to="/promotion" className="hover:underline">
                <Trans>Spread the word</Trans>
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold">
            <Trans>Company</Trans>
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            <li>
              <Link to="/about" className="hover:underline">
                <Trans>About MyTess</Trans>
              </Link>
            </li>
            <li>
              <Link to="/terms" className="hover:underline">
                <Trans>Terms of use</Trans>
              </Link>
            </li>
            <li>
              <Link to="/privacy" className="hover:underline">
                <Trans>Privacy</Trans>
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold">
            <Trans>Languages</Trans>
          </h2>
          <p className="mt-2 text-sm text-muted-foreground" data-testid="footer-languages">
            <Trans>MyTess is available in English, Amharic (አማርኛ) and Afaan Oromo.</Trans>
          </p>
          {/* Everyone can choose the calendar, signed in or not (a device without an account keeps it locally). */}
          <label className="mt-3 grid gap-1 text-sm" htmlFor="footer-calendar">
            <span className="font-semibold">
              <Trans>Calendar</Trans>
            </span>
            <CalendarSelect id="footer-calendar" className="w-48" />
          </label>
        </div>
      </div>
      <div className="border-t py-4 text-center text-xs text-muted-foreground">
        <Trans>© {year} MyTess. All rights reserved.</Trans>
      </div>
    </footer>
  );
}
