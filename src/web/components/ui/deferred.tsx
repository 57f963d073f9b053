import { useLingui } from "@lingui/react/macro";
import { type ComponentType, cloneElement, type ReactElement, useState } from "react";
import { toast } from "../../lib/toast";

// A dialog or a menu behind a button, whose code (Radix with its focus trap, scroll lock and positioning, the form)
// loads only when it is wanted. The button shows at once; pointing at it or focusing it starts the download, a click
// opens the part when it has arrived. On a phone at 400 kbit/s this keeps about 40 KB of dialogs and menus off the
// load board's first screen (whose first card must show within 6 s on a cold start). Pages preload their parts once
// their own content is shown (`preloadPart` with lib/idle's `whenIdle`), so a click rarely waits.

/** A part: its module, loaded once; it takes `defaultOpen` and shows its own trigger (the same button). */
export type TPartLoader<P> = () => Promise<ComponentType<P & { defaultOpen?: boolean }>>;

const loaded = new WeakMap<TPartLoader<never>, ComponentType<never>>();
const loading = new WeakMap<TPartLoader<never>, Promise<ComponentType<never>>>();

/** Starts loading a part (once; again after a failure) and resolves to its component. */
export const preloadPart = <P,>(loader: TPartLoader<P>): Promise<ComponentType<P & { defaultOpen?: boolean }>> => {
  const key = loader as TPartLoader<never>;
  const done = loaded.get(key);
  if (done) return Promise.resolve(done as never);
  let p = loading.get(key);
  if (!p) {
    p = (loader as TPartLoader<never>)().then(
      (c) => {
        loaded.set(key, c);
        return c;
      },
      (err) => {
        loading.delete(key);
        throw err;
      },
    );
    loading.set(key, p);
  }
  return p as never;
};

/**
 * `trigger` until the part is wanted, then the part itself (given `props`), opened by the click that asked for it.
 * A part already loaded renders at once, closed, exactly as if it had been imported statically.
 */
export function Deferred<P extends object>({
  loader,
  trigger,
  props,
}: {
  loader: TPartLoader<P>;
  trigger: ReactElement;
  props: P;
}) {
  const { t } = useLingui();
  const [state, setState] = useState<{ Part: ComponentType<P & { defaultOpen?: boolean }>; open: boolean } | null>(
    () => {
      const Part = loaded.get(loader as TPartLoader<never>) as ComponentType<P & { defaultOpen?: boolean }> | undefined;
      return Part ? { Part, open: false } : null;
    },
  );
  if (state) return <state.Part {...props} defaultOpen={state.open} />;
  const warm = () => void preloadPart(loader).catch(() => undefined);
  const open = () =>
    preloadPart(loader).then(
      (Part) => setState({ Part, open: true }),
      () =>
        toast({
          title: t`Error`,
          description: t`Could not reach MyTess. Check your connection and try again.`,
          variant: "destructive",
        }),
    );
  const handlers = { onClick: () => void open(), onPointerEnter: warm, onFocus: warm };
  return cloneElement(trigger as ReactElement<typeof handlers>, handlers);
}
