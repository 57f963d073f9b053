import { type ClassValue, clsx } from "clsx";

// Plain joining, no conflict resolution (tailwind-merge would cost 8 KB gzipped on the first load): components take
// variants for looks that differ, and callers add classes that do not clash with the component's own.
export const cn = (...inputs: ClassValue[]) => clsx(inputs);
