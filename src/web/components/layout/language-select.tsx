import { useLingui } from "@lingui/react/macro";
import { Globe } from "lucide-react";
import { LANGUAGES, type TLanguage } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../ui/select";

export function LanguageSelect({ className }: { className?: string }) {
  const { t } = useLingui();
  const { language, setLanguage } = usePreferences();
  return (
    <Select value={language} onValueChange={(v) => void setLanguage(v as TLanguage)}>
      <SelectTrigger className={className} aria-label={t`Language`} data-testid="language-select">
        <Globe className="size-4" />
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {LANGUAGES.map((l) => (
          <SelectItem key={l.code} value={l.code}>
            {l.nativeName}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
