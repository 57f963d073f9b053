// Intl formatters, made once per locale and options: building one costs far more than formatting with it (a board of
// twenty loads formats about a hundred dates and amounts, and on a slow phone the building alone took a tenth of a
// second before the first card showed).

const MAX = 256;
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

const cached = <F>(cache: Map<string, F>, key: string, make: () => F) => {
  let f = cache.get(key);
  if (!f) {
    if (cache.size >= MAX) cache.clear();
    f = make();
    cache.set(key, f);
  }
  return f;
};

/** `new Intl.NumberFormat(locale, options)`, shared. */
export const numberFormat = (locale: string, options: Intl.NumberFormatOptions = {}) =>
  cached(numberFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** `new Intl.DateTimeFormat(locale, options)`, shared. */
export const dateTimeFormat = (locale: string, options: Intl.DateTimeFormatOptions = {}) =>
  cached(dateFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
