import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";

/** The server's "confirm your email or phone first" message, with the way to do it. */
export function ContactNeeded({ message }: { message: string }) {
  return (
    <div
      role="alert"
      data-testid="contact-needed"
      className="grid gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p>{message}</p>
      <Link to="/settings" hash="contact" className="inline-flex min-h-11 items-center font-medium underline">
        <Trans comment="Link from a 'confirm your email or phone' message to the settings where it is done">
          Confirm it in Settings
        </Trans>
      </Link>
    </div>
  );
}
