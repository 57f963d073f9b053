import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { type RefObject, useLayoutEffect, useRef } from "react";
import { cn } from "../../lib/utils";

// A badge stays on one line: a long translation (Afaan Oromo runs long) is cut at the edge of its row, never wrapped
// into a second line or pushed over its neighbour, and the cut one shows its whole text as a tooltip.
const badgeVariants = cva(
  "inline-flex max-w-full items-center gap-1 overflow-hidden whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold",
  {
    variants: {
      variant: {
        default: "border-transparent bg-brand text-white",
        secondary: "border-transparent bg-muted text-slate-700",
        outline: "text-slate-700",
        success: "border-transparent bg-green-100 text-green-800",
        warning: "border-transparent bg-yellow-100 text-yellow-800",
        destructive: "border-transparent bg-red-100 text-red-800",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

/** Gives a pill cut at its edge its whole text as a title (unless it has its own), after every render. */
export function useTitleWhenCut(ref: RefObject<HTMLElement | null>, title: string | undefined) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || title) return;
    const cut = el.scrollWidth > el.clientWidth + 1;
    if (cut) el.title = el.textContent ?? "";
    else el.removeAttribute("title");
  });
}

function Badge({
  className,
  variant,
  title,
  ...props
}: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  const ref = useRef<HTMLSpanElement>(null);
  useTitleWhenCut(ref, title);
  return (
    <span ref={ref} data-slot="badge" title={title} className={cn(badgeVariants({ variant }), className)} {...props} />
  );
}

export { Badge, badgeVariants };
