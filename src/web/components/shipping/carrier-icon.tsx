import { cn } from "../../lib/utils";

const STYLE: Record<string, string> = { fedex: "bg-purple-700", ups: "bg-amber-800", usps: "bg-blue-800" };
const LABEL: Record<string, string> = { fedex: "FedEx", ups: "UPS", usps: "USPS" };

export const carrierName = (id: string) => LABEL[id] ?? id.toUpperCase();

export function CarrierIcon({ carrier, className }: { carrier: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-[10px] font-bold text-white",
        STYLE[carrier] ?? "bg-slate-600",
        className,
      )}
    >
      {carrierName(carrier)}
    </span>
  );
}
