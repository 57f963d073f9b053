// The Element Timing API's attribute (Chromium): the element's first paint is reported to PerformanceObserver under this
// identifier. bench/cold-start.ts measures the main content of a page by it.
import "react";

declare module "react" {
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
