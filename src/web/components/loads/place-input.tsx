import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { TPlace } from "../../lib/api-types";
import { trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Input } from "../ui/input";

/** A city field that suggests places from the offline gazetteer; picking one fills the place's other fields. */
export function PlaceInput({
  id,
  value,
  onChange,
  onPick,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  onPick: (p: TPlace) => void;
  invalid?: boolean;
  /** The id of the field's error or hint. */
  describedBy?: string;
}) {
  const { t } = useLingui();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(-1);
  // Closing on blur waits a moment (a click on an option blurs the field first); focus coming back cancels it.
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closing.current), []);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(value.trim()), 200);
    return () => clearTimeout(timer);
  }, [value]);
  const places = useQuery({
    ...trpc.places.search.queryOptions({ q: query, limit: 8 }, { staleTime: 5 * 60_000 }),
    enabled: open && query.length >= 2,
  });
  const items = places.data ?? [];
  const pick = (p: TPlace) => {
    onPick(p);
    setOpen(false);
    setActive(-1);
  };
  return (
    <div className="relative">
      <Input
        id={id}
        value={value}
        autoComplete="off"
        role="combobox"
        aria-expanded={open && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-invalid={invalid}
        aria-describedby={describedBy}
        placeholder={t`Start typing a city`}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
        }}
        onFocus={() => {
          clearTimeout(closing.current);
          setOpen(true);
        }}
        onBlur={() => {
          closing.current = setTimeout(() => setOpen(false), 150);
        }}
        onKeyDown={(e) => {
          if (!open || !items.length) return;
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => (a + 1) % items.length);
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
          } else if (e.key === "Enter" && active >= 0) {
            e.preventDefault();
            pick(items[active]);
          } else if (e.key === "Escape") setOpen(false);
        }}
      />
      {open && items.length > 0 && (
        <div
          id={listId}
          role="listbox"
          className="absolute z-50 mt-1 max-h-64 w-full overflow-y-auto rounded-md border bg-white shadow-md"
        >
          {items.map((p, i) => (
            <div
              key={`${p.city}-${p.latitude}-${p.longitude}`}
              role="option"
              aria-selected={i === active}
              tabIndex={-1}
              className={cn(
                // A phone's suggestion is a finger's 44 px high.
                "min-h-11 cursor-pointer px-3 py-3 text-sm hover:bg-muted sm:min-h-0 sm:py-2",
                i === active && "bg-muted",
              )}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(p);
              }}
            >
              <span className="font-medium">{p.city}</span>
              <span className="text-muted-foreground">
                {[p.state, p.country]
                  .filter(Boolean)
                  .map((x) => `, ${x}`)
                  .join("")}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
