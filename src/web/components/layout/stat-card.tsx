import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "../ui/card";

export function StatCard({
  icon: Icon,
  label,
  value,
  hint,
  testId,
}: {
  icon: LucideIcon;
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
}) {
  return (
    <Card className="flex items-center gap-3 p-4" data-testid={testId}>
      <div className="rounded-lg bg-teal-50 p-2 text-brand">
        <Icon className="size-5" />
      </div>
      <div className="min-w-0">
        <div className="text-xs text-muted-foreground">{label}</div>
        <div className="text-xl font-bold" data-testid={testId ? `${testId}-value` : undefined}>
          {value}
        </div>
        {hint && <div className="text-xs text-muted-foreground">{hint}</div>}
      </div>
    </Card>
  );
}
