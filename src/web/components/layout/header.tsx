import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { ChevronDown, Menu, Truck, X } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { TUserType } from "../../../shared/constants";
import { loginHref, useMe } from "../../lib/auth";
import { Button } from "../ui/button";
import { CurrencySelect } from "./currency-select";
import { LanguageSelect } from "./language-select";

// Signed-in parts (menus, tooltip) load only for signed-in users, keeping the landing page light.
const SignedInControls = lazy(() => import("./signed-in-controls"));

const NAV_CLS =
  "whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-muted [&.active]:bg-teal-50 [&.active]:text-teal-800";

/**
 * The signed-in menu follows the role: a driver gets the driver dashboard and no Post Load or store orders, a shipper
 * the reverse. On a desktop the first links stay in the bar and the rest sit under More, so the bar fits at 1280 px in
 * every language.
 */
function useNavItems(role: TUserType) {
  const { t } = useLingui();
  const all = [
    role === "driver"
      ? {
          to: "/driver",
          label: t({
            message: "Driver",
            comment: "Account type (sign-up choice, profile badge) and header link: a truck driver who bids on loads",
          }),
        }
      : {
          to: "/shipper",
          label: t({
            message: "Post Load",
            comment:
              "Header link for shippers and the post-load form's submit button: publish a new load for drivers to bid on",
          }),
        },
    {
      to: "/loads",
      label: t({
        message: "Load Board",
        comment: "Header link, page title and heading: the board that lists all posted loads (freight offers)",
      }),
    },
    {
      to: "/messaging",
      label: t({
        message: "Messages",
        comment: "Header link, page title and dialog title: chat messages between a shipper and drivers about a load",
      }),
    },
    {
      to: "/shipping",
      label: t({
        message: "Shipping",
        comment: "Header link and page title: parcel shipping (compare FedEx, UPS, USPS prices, track parcels)",
      }),
    },
    // Under More on a desktop: the bar has room for four links in every language.
    ...(role === "driver"
      ? [
          {
            to: "/trucks",
            label: t({
              message: "My trucks",
              comment: "Header link and page title: the driver's posted truck availabilities",
            }),
          },
        ]
      : [
          {
            to: "/find-trucks",
            label: t({
              message: "Find trucks",
              comment: "Header link and page title: a shipper searches trucks available near their pickup",
            }),
          },
        ]),
    {
      to: "/marketplaces",
      label: t({
        message: "Marketplaces",
        comment: "Header link and page title: connecting outside load boards (DAT, Truckstop, 123Loadboard)",
      }),
    },
    ...(role === "shipper"
      ? [
          {
            to: "/ecommerce",
            label: t({
              message: "E-commerce",
              comment:
                "Header link and page title: connecting online stores (Shopify, Amazon) whose orders become loads",
            }),
          },
        ]
      : []),
    {
      to: "/promotion",
      label: t({
        message: "Promote",
        comment: "Header link and browser tab title: the page with ready-made texts to tell others about MyTess",
      }),
    },
  ] as const;
  return all;
}

function NavLinks({ role, onNavigate }: { role: TUserType; onNavigate?: () => void }) {
  return (
    <>
      {useNavItems(role).map((i) => (
        <Link key={i.to} to={i.to} className={NAV_CLS} onClick={onNavigate}>
          {i.label}
        </Link>
      ))}
    </>
  );
}

const PRIMARY = 4;

function DesktopNav({ role }: { role: TUserType }) {
  const { t } = useLingui();
  const items = useNavItems(role);
  const [more, setMore] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // The More menu closes on a click elsewhere or Escape.
  useEffect(() => {
    if (!more) return;
    const onDown = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setMore(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setMore(false);
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [more]);
  return (
    <>
      {items.slice(0, PRIMARY).map((i) => (
        <Link key={i.to} to={i.to} className={NAV_CLS}>
          {i.label}
        </Link>
      ))}
      <div className="relative" ref={box}>
        <button
          type="button"
          className={`${NAV_CLS} flex items-center gap-1`}
          aria-expanded={more}
          aria-haspopup="true"
          onClick={() => setMore(!more)}
          data-testid="nav-more"
        >
          {t({ message: "More", comment: "Header: menu button that shows the links that do not fit" })}
          <ChevronDown className="size-4" />
        </button>
        {more && (
          <div className="absolute left-0 top-full z-50 mt-1 flex min-w-44 flex-col rounded-md border bg-white p-1 shadow-lg">
            {items.slice(PRIMARY).map((i) => (
              <Link key={i.to} to={i.to} className={NAV_CLS} onClick={() => setMore(false)}>
                {i.label}
              </Link>
            ))}
          </div>
        )}
      </div>
    </>
  );
}

function SignedOutLinks({ onNavigate }: { onNavigate?: () => void }) {
  const cls = "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-muted";
  return (
    <>
      <Link to="/landing" hash="drivers" className={cls} onClick={onNavigate}>
        <Trans comment="Landing page menu link and card title: the part of the page for truck drivers">
          For drivers
        </Trans>
      </Link>
      <Link to="/landing" hash="shippers" className={cls} onClick={onNavigate}>
        <Trans comment="Landing page menu link and card title: the part of the page for shippers (people with freight to move)">
          For shippers
        </Trans>
      </Link>
      <Link to="/landing" hash="loadboard" className={cls} onClick={onNavigate}>
        <Trans>Load board</Trans>
      </Link>
      <Link to="/landing" hash="about" className={cls} onClick={onNavigate}>
        <Trans comment="Landing page top menu link to the “About” section (about MyTess)">About</Trans>
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
        <Link to="/" className="flex min-h-11 items-center gap-2 font-bold text-brand" aria-label="MyTess">
          <Truck className="size-6" />
          <span className="text-lg">MyTess</span>
        </Link>
        <nav
          aria-label={t({ message: "Main", comment: "Screen-reader name of the header's main navigation" })}
          className="ml-2 hidden min-w-0 items-center gap-0.5 xl:flex"
          data-testid="main-nav"
        >
          {user ? <DesktopNav role={user.userType} /> : <SignedOutLinks />}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <LanguageSelect className="hidden w-[8.5rem] sm:flex" />
          <CurrencySelect className="hidden w-[6.5rem] sm:flex" />
          {user ? (
            <Suspense fallback={<span className="size-9" />}>
              <SignedInControls user={user} />
            </Suspense>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm" className="max-sm:h-11">
                <a href={loginHref(undefined, undefined, "signin")}>
                  <Trans>Log in</Trans>
                </a>
              </Button>
              <span className="hidden sm:inline-flex">
                <Button asChild size="sm">
                  <a href={loginHref(undefined, undefined, "register")} data-testid="get-started">
                    <Trans comment="Header button for visitors: open an account">Get started</Trans>
                  </a>
                </Button>
              </span>
            </>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="max-sm:size-11 xl:hidden"
            aria-label={
              open
                ? t({
                    message: "Close menu",
                    comment: "Screen-reader label of the header's menu button on phones, when the menu is open",
                  })
                : t({
                    message: "Open menu",
                    comment: "Screen-reader label of the header's menu button on phones, when the menu is closed",
                  })
            }
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? <X /> : <Menu />}
          </Button>
        </div>
      </div>
      {open && (
        <nav
          aria-label={t({ message: "Mobile", comment: "Screen-reader name of the phone navigation menu" })}
          className="flex flex-col gap-1 border-t bg-white px-4 py-3 xl:hidden"
        >
          {user ? <NavLinks role={user.userType} onNavigate={close} /> : <SignedOutLinks onNavigate={close} />}
          {!user && (
            <div className="mt-2 grid grid-cols-2 gap-2 sm:hidden">
              <Button asChild variant="outline">
                <a href={loginHref(undefined, undefined, "signin")}>
                  <Trans>Log in</Trans>
                </a>
              </Button>
              <Button asChild>
                <a href={loginHref(undefined, undefined, "register")}>
                  <Trans>Get started</Trans>
                </a>
              </Button>
            </div>
          )}
          <div className="mt-2 flex gap-2 sm:hidden">
            <LanguageSelect className="flex-1" />
            <CurrencySelect className="flex-1" />
          </div>
        </nav>
      )}
    </header>
  );
}
