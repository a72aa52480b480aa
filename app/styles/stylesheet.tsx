/**
 * The app's stylesheet, inlined into every page's <head> in production builds.
 *
 * A linked stylesheet blocks the first paint for one more round trip (on a phone network
 * that is most of a second, as Lighthouse measured); the whole stylesheet is ≈ 9 KB gzip,
 * so the page carries it instead. Only the server has the text (entry.server provides it);
 * in the browser the context is empty and React keeps the server's <style> as it is: it
 * does not rewrite dangerouslySetInnerHTML while hydrating, and the browser's props never
 * change afterwards. `npm run dev` links the file, so Vite can hot-reload it.
 */
import { createContext, useContext } from "react";
import stylesheetHref from "~/styles/app.css?url";

export { stylesheetHref };

export const StylesheetTextContext = createContext<string | undefined>(undefined);

export function Stylesheet({ nonce }: { nonce: string | undefined }) {
  const text = useContext(StylesheetTextContext);
  if (import.meta.env.DEV) return <link rel="stylesheet" href={stylesheetHref} />;
  return <style nonce={nonce} data-href={stylesheetHref} dangerouslySetInnerHTML={{ __html: text ?? "" }} suppressHydrationWarning />;
}
