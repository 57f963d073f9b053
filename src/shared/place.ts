/**
 * A place as people write it: "Adama, Oromia, Ethiopia", with empty parts left out and a part that only repeats the one
 * before it dropped ("Addis Ababa, Addis Ababa, Ethiopia" is "Addis Ababa, Ethiopia": the city is also its region).
 */
export const placeLabel = (...parts: (string | null | undefined)[]) => {
  const out: string[] = [];
  for (const raw of parts) {
    const part = raw?.trim();
    if (part && part.toLowerCase() !== out.at(-1)?.toLowerCase()) out.push(part);
  }
  return out.join(", ");
};
