import { Trans } from "@lingui/react/macro";
import { CalendarDays } from "lucide-react";
import { useState } from "react";
import { formatDate } from "../../../shared/dates";
import { useMe } from "../../lib/auth";
import { usePreferences } from "../../lib/preferences";
import { Button } from "../ui/button";

const ASKED_KEY = "calendarSuggested";

/**
 * Once, for a signed-in user whose language is Amharic or Afaan Oromo and who has not chosen a calendar: a suggestion
 * (not a switch) to show dates in the Ethiopian calendar. Either answer is remembered; /settings changes it later.
 */
export function CalendarSuggestion() {
  const { data: me } = useMe();
  const { language, setCalendar } = usePreferences();
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(ASKED_KEY) === "1");
  if (
    !me ||
    dismissed ||
    !(language === "am" || language === "om") ||
    me.calendar !== "gregorian" ||
    localStorage.getItem("preferredCalendar")
  )
    return null;
  const answer = (ethiopic: boolean) => {
    localStorage.setItem(ASKED_KEY, "1");
    setDismissed(true);
    setCalendar(ethiopic ? "ethiopic" : "gregorian");
  };
  const example = formatDate(new Date(), { language, calendar: "ethiopic" });
  return (
    <div
      role="dialog"
      aria-labelledby="calendar-suggestion-title"
      className="fixed inset-x-4 bottom-16 z-50 mx-auto max-w-md rounded-lg border bg-white p-4 shadow-xl"
      data-testid="calendar-suggestion"
    >
      <p id="calendar-suggestion-title" className="flex items-center gap-2 font-medium">
        <CalendarDays className="size-5 text-brand" />
        <Trans>Show dates in the Ethiopian calendar?</Trans>
      </p>
      <p className="mt-1 text-sm text-muted-foreground">
        <Trans>Today would read: {example}. You can change this any time in Settings.</Trans>
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => answer(true)}>
          <Trans>Use the Ethiopian calendar</Trans>
        </Button>
        <Button size="sm" variant="outline" onClick={() => answer(false)}>
          <Trans>Keep the Gregorian calendar</Trans>
        </Button>
      </div>
    </div>
  );
}
