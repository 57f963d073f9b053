import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type * as React from "react";
import { cn } from "../../lib/utils";

// A dense data table in the shadcn/ui manner: plain elements with the project's looks. The table is never wrapped in
// an overflow box, so its header can stick to the page while the page scrolls.

function Table({ className, ...props }: React.ComponentProps<"table">) {
  return (
    <table data-slot="table" className={cn("w-full caption-bottom border-collapse text-sm", className)} {...props} />
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return (
    <thead
      data-slot="table-header"
      className={cn("bg-slate-50 shadow-[0_1px_0_var(--color-border)]", className)}
      {...props}
    />
  );
}

function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={cn("divide-y", className)} {...props} />;
}

function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("align-top transition-colors", className)} {...props} />;
}

/** `end`: the column's content lines up at the end (numbers and amounts, the actions). */
type TAlign = { end?: boolean };

function TableHead({ className, end, ...props }: React.ComponentProps<"th"> & TAlign) {
  return (
    <th
      data-slot="table-head"
      scope="col"
      className={cn(
        "px-2 py-2 align-middle text-xs font-semibold text-slate-600",
        end ? "text-right" : "text-left",
        className,
      )}
      {...props}
    />
  );
}

function TableCell({ className, end, ...props }: React.ComponentProps<"td"> & TAlign) {
  return (
    <td data-slot="table-cell" className={cn("px-2 py-2.5", end ? "text-right" : "text-left", className)} {...props} />
  );
}

/**
 * A column header that sorts the table: a button inside the header cell, whose `aria-sort` says which way the column
 * is sorted (or `none`). Each sort has one direction here (the API's), so pressing it again changes nothing.
 */
function SortableHead({
  sorted,
  onSort,
  children,
  className,
  testId,
  end,
}: {
  end?: boolean;
  sorted: "ascending" | "descending" | false;
  onSort: () => void;
  children: React.ReactNode;
  className?: string;
  testId?: string;
}) {
  const Icon = sorted === "ascending" ? ArrowUp : sorted === "descending" ? ArrowDown : ArrowUpDown;
  return (
    <TableHead aria-sort={sorted || "none"} className={className} end={end}>
      <button
        type="button"
        onClick={onSort}
        data-testid={testId}
        className={cn(
          "-mx-1 -my-0.5 inline-flex items-center gap-1 rounded px-1 py-0.5 text-left hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand/50",
          sorted && "text-brand",
        )}
      >
        {children}
        <Icon aria-hidden className={cn("size-3.5 shrink-0", !sorted && "opacity-40")} />
      </button>
    </TableHead>
  );
}

const INTERACTIVE = "a,button,input,select,textarea,label,summary,[role=menuitem],[role=dialog]";

/**
 * A row that opens its item: a click anywhere on the row that is not on one of its own controls, or Enter while the
 * row has the focus. Clicks that reach the row through a portal (a dialog opened from the row's buttons) and clicks
 * that end a text selection do not count.
 */
const rowLinkProps = (open: () => void) => ({
  tabIndex: 0,
  onClick: (e: React.MouseEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    if (!e.currentTarget.contains(target) || target.closest(INTERACTIVE)) return;
    if (window.getSelection()?.toString()) return;
    open();
  },
  onKeyDown: (e: React.KeyboardEvent<HTMLElement>) => {
    if (e.key === "Enter" && e.target === e.currentTarget) {
      e.preventDefault();
      open();
    }
  },
  className:
    "cursor-pointer hover:bg-slate-50 focus-visible:bg-teal-50/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand/50",
});

export { rowLinkProps, SortableHead, Table, TableBody, TableCell, TableHead, TableHeader, TableRow };
