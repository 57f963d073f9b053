import { useLingui } from "@lingui/react/macro";
import { Globe } from "lucide-react";
import { LANGUAGES, type TLanguage } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";

// A native select: light, and the phone's own picker on small screens.
export function LanguageSelect({ className }: { className?: string }) {
  const { t } = useLingui();
  const { language, setLanguage } = usePreferences();
  return (
    <div className={cn("relative flex items-center", className)}>
      <Globe className="pointer-events-none absolute left-2.5 size-4 text-muted-foreground" />
      <select
        aria-label={t({
          message: "Language",
          comment: "Label of the language choice (header menu, settings card title)",
        })}
        data-testid="language-select"
        value={language}
        onChange={(e) => void setLanguage(e.target.value as TLanguage)}
        className="h-9 w-full appearance-none rounded-md border bg-white pr-3 pl-8 text-sm outline-none focus-visible:ring-2 focus-visible:ring-brand/40"
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.nativeName}
          </option>
        ))}
      </select>
    </div>
  );
}
