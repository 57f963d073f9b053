/** A progress bar for one file's upload (0 to 1). */
export function UploadBar({ fraction, label }: { fraction: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(fraction * 100)}
      className="h-2 w-full overflow-hidden rounded bg-muted"
      data-testid="upload-progress"
    >
      <div className="h-full bg-brand transition-[width]" style={{ width: `${Math.round(fraction * 100)}%` }} />
    </div>
  );
}
