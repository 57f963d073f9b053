import { Trans } from "@lingui/react/macro";

export function Splash() {
  return (
    <div className="splash" role="status" aria-live="polite">
      <div className="splash-name">MyTess</div>
      <div className="splash-text">
        <Trans>Loading...</Trans>
      </div>
    </div>
  );
}
