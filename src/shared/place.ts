/**
 * A place as people write it: "Adama, Oromia, Ethiopia", with empty parts left out and a part that only repeats the one
 * before it dropped ("Addis Ababa, Addis Ababa, Ethiopia" is "Addis Ababa, Ethiopia": the city is also its region).
 * Twice per load on every board answer, so written without arrays.
 */
export const placeLabel = (...parts: (string | null | undefined)[]) => {
  let out = "";
  let last = "";
  for (const raw of parts) {
    const part = raw ? raw.trim() : "";
    if (!part) continue;
    const lower = part.toLowerCase();
    if (lower === last) continue;
    out = out ? `${out}, ${part}` : part;
    last = lower;
  }
  return out;
};
