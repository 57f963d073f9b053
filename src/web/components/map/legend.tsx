import type { ReactNode } from "react";

/** One entry of a map's legend: a colour swatch and its meaning. */
export function LegendItem({ color, children, testId }: { color: string; children: ReactNode; testId?: string }) {
  return (
    <li className="flex items-center gap-1.5" data-testid={testId}>
      <span aria-hidden="true" className="inline-block size-3 rounded-full" style={{ backgroundColor: color }} />
      <span>{children}</span>
    </li>
  );
}
