import { Trans, useLingui } from "@lingui/react/macro";
import { Eraser } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "../ui/button";

/**
 * The receiver signs on the screen with a finger, a stylus or the mouse (pointer events cover all three). `onChange`
 * gets true once something is drawn and false after Clear; `exportRef` gives the drawing as a PNG.
 */
export function SignaturePad({
  onChange,
  exportRef,
}: {
  onChange: (signed: boolean) => void;
  exportRef: React.RefObject<(() => Promise<Blob | null>) | null>;
}) {
  const { t } = useLingui();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawn = useRef(false);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    // Drawn at the screen's pixel density, so the line is sharp on a phone.
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = c.getBoundingClientRect();
    c.width = Math.round(width * ratio);
    c.height = Math.round(height * ratio);
    const ctx = c.getContext("2d");
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, width, height);
    ctx.lineWidth = 2.5;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#0f172a";
    exportRef.current = () =>
      drawn.current ? new Promise<Blob | null>((resolve) => c.toBlob(resolve, "image/png")) : Promise.resolve(null);
    return () => {
      exportRef.current = null;
    };
  }, [exportRef]);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const ctx = e.currentTarget.getContext("2d");
    if (!ctx) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = point(e);
    ctx.beginPath();
    ctx.moveTo(p.x, p.y);
    // A dot for a tap, so a single touch shows.
    ctx.lineTo(p.x + 0.1, p.y + 0.1);
    ctx.stroke();
  };
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!e.currentTarget.hasPointerCapture(e.pointerId)) return;
    const ctx = e.currentTarget.getContext("2d");
    if (!ctx) return;
    const p = point(e);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    if (!drawn.current) {
      drawn.current = true;
      onChange(true);
    }
  };
  const clear = () => {
    const c = canvas.current;
    const ctx = c?.getContext("2d");
    if (!c || !ctx) return;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.restore();
    drawn.current = false;
    onChange(false);
  };

  return (
    <div className="grid gap-2">
      <canvas
        ref={canvas}
        className="h-40 w-full touch-none rounded-md border bg-white"
        role="img"
        aria-label={t({
          message: "Signature pad: the receiver signs here with a finger or the mouse",
          comment: "Screen-reader name of the box where the receiver draws their signature",
        })}
        data-testid="signature-pad"
        onPointerDown={down}
        onPointerMove={move}
      />
      <Button type="button" variant="outline" size="lg" onClick={clear} data-testid="clear-signature">
        <Eraser />
        <Trans comment="Button under the signature pad: wipe the drawn signature to sign again">Clear signature</Trans>
      </Button>
    </div>
  );
}
