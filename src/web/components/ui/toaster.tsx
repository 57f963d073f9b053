import { useLingui } from "@lingui/react/macro";
import { X } from "lucide-react";
import { Toast as ToastPrimitive } from "radix-ui";
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD } from "../../../shared/constants";
import { dismissToast, useToasts } from "../../lib/toast";
import { cn } from "../../lib/utils";

const VARIANT = {
  default: "border bg-white text-slate-900",
  success: "border-green-200 bg-green-50 text-green-900",
  warning: "border-yellow-200 bg-yellow-50 text-yellow-900",
  destructive: "border-red-300 bg-red-600 text-white",
} as const;

/** The toast region: one at a time, 5 s, swipe right past 50 px, F8 focuses it. */
export function Toaster() {
  const toasts = useToasts();
  const { t } = useLingui();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD}>
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          duration={item.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          data-testid="toast"
          className={cn(
            "group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md p-4 pr-8 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:opacity-0 transition-opacity",
            VARIANT[item.variant ?? "default"],
          )}
        >
          <div className="grid gap-1">
            {item.title && <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>}
            {item.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{item.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label={t`Close`}
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100"
          >
            <X className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        // Radix puts the key in for {hotkey}; the word is ours to translate.
        label={`${t`Notifications`} ({hotkey})`}
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 sm:right-0 sm:bottom-0 sm:top-auto sm:flex-col md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
