/**
 * One adapter per configuration version, so each keeps its tokens and budgets: `key` is "<id>:<version>", and a newer
 * version of the same id replaces the older one. The settings are read only when an adapter is made.
 */
export const versionedAdapters = <TSettings, TAdapter>(create: (s: TSettings) => TAdapter) => {
  const adapters = new Map<string, TAdapter>();
  return (key: string, settings: () => TSettings): TAdapter => {
    let a = adapters.get(key);
    if (!a) {
      const id = key.split(":")[0];
      for (const k of adapters.keys()) if (k.split(":")[0] === id) adapters.delete(k);
      a = create(settings());
      adapters.set(key, a);
    }
    return a;
  };
};
