/**
 * The Content-Security-Policy nonce of the page being rendered. Only the server knows it
 * (browsers hide nonce attributes from scripts), so in the browser it is undefined.
 */
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
