import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { Button } from "../ui/button";

export function NotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">
        <Trans>404 Page Not Found</Trans>
      </h1>
      <p className="text-muted-foreground">
        <Trans>The page you are looking for does not exist or has moved.</Trans>
      </p>
      <Button asChild>
        <Link to="/">
          <Trans comment="Button on the page-not-found screen: go to the start page">Go home</Trans>
        </Link>
      </Button>
    </div>
  );
}
