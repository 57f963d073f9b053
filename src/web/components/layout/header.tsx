import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { Menu, Truck, X } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { loginHref, useMe } from "../../lib/auth";
import { Button } from "../ui/button";
import { CurrencySelect } from "./currency-select";
import { LanguageSelect } from "./language-select";

// Signed-in parts (menus, tooltip) load only for signed-in users, keeping the landing page light.
const SignedInControls = lazy(() => import("./signed-in-controls"));

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const cls =
    "whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-muted [&.active]:bg-teal-50 [&.active]:text-teal-800";
  return (
    <>
      <Link to="/driver" className={cls} onClick={onNavigate}>
        <Trans>Driver</Trans>
      </Link>
      <Link to="/shipper" className={cls} onClick={onNavigate}>
        <Trans>Post Load</Trans>
      </Link>
      <Link to="/loads" className={cls} onClick={onNavigate}>
        <Trans>Load Board</Trans>
      </Link>
      <Link to="/marketplaces" className={cls} onClick={onNavigate}>
        <Trans>Marketplaces</Trans>
      </Link>
      <Link to="/messaging" className={cls} onClick={onNavigate}>
        <Trans>Messages</Trans>
      </Link>
      <Link to="/ecommerce" className={cls} onClick={onNavigate}>
        <Trans>E-commerce</Trans>
      </Link>
      <Link to="/shipping" className={cls} onClick={onNavigate}>
        <Trans>Shipping</Trans>
      </Link>
      <Link to="/promotion" className={cls} onClick={onNavigate}>
        <Trans>Promote</Trans>
      </Link>
    </>
  );
}

function SignedOutLinks({ onNavigate }: { onNavigate?: () => void }) {
  const cls = "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-muted";
  return (
    <>
      <Link to="/landing" hash="drivers" className={cls} onClick={onNavigate}>
        <Trans>For drivers</Trans>
      </Link>
      <Link to="/landing" hash="shippers" className={cls} onClick={onNavigate}>
        <Trans>For shippers</Trans>
      </Link>
      <Link to="/landing" hash="loadboard" className={cls} onClick={onNavigate}>
        <Trans>Load board</Trans>
      </Link>
      <Link to="/landing" hash="about" className={cls} onClick={onNavigate}>
        <Trans>About</Trans>
      </Link>
    </>
  );
}

export function Header() {
  const { t } = useLingui();
  const { data: user } = useMe();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <header className="sticky top-0 z-40 border-b bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4">
        <Link to="/" className="flex items-center gap-2 font-bold text-brand" aria-label="MyTess">
          <Truck className="size-6" />
          <span className="text-lg">MyTess</span>
        </Link>
        <nav aria-label={t`Main`} className="ml-2 hidden min-w-0 items-center gap-0.5 xl:flex" data-testid="main-nav">
          {user ? <NavLinks /> : <SignedOutLinks />}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <LanguageSelect className="hidden w-[8.5rem] sm:flex xl:w-[7.5rem]" />
          <CurrencySelect className="hidden w-[6.5rem] sm:flex" />
          {user ? (
            <Suspense fallback={<span className="size-9" />}>
              <SignedInControls user={user} />
            </Suspense>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm">
                <a href={loginHref()}>
                  <Trans>Log in</Trans>
                </a>
              </Button>
              <span className="hidden sm:inline-flex">
                <Button asChild size="sm">
                  <a href={loginHref()}>
                    <Trans>Get started</Trans>
                  </a>
                </Button>
              </span>
            </>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="xl:hidden"
            aria-label={open ? t`Close menu` : t`Open menu`}
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? <X /> : <Menu />}
          </Button>
        </div>
      </div>
      {open && (
        <nav aria-label={t`Mobile`} className="flex flex-col gap-1 border-t bg-white px-4 py-3 xl:hidden">
          {user ? <NavLinks onNavigate={close} /> : <SignedOutLinks onNavigate={close} />}
          <div className="mt-2 flex gap-2 sm:hidden">
            <LanguageSelect className="flex-1" />
            <CurrencySelect className="flex-1" />
          </div>
        </nav>
      )}
    </header>
  );
}
