/**
 * What every section of an offer page can read: the page's data, the ticking countdown and
 * the plan selected by a scroll button. OfferPage provides it; sections read it with usePage.
 */
import { createContext, useContext, useEffect, useState } from "react";
import type { OfferView, Ownership } from "../offer-page.server";
import type { PreviewStep, PreviewTip, ProductMatch } from "../offer-page-preview";

export type PageState = {
  /** Seconds left on the countdown; 0 once it has run out (then nothing about it is shown). */
  seconds: number;
  selected: string | null;
  select: (planId: string) => void;
  offer: OfferView;
  owned: Ownership | null;
  matches: ProductMatch[];
  /** The routine plan's steps and home tips for the visitor's answers, locked parts without their texts. */
  routine: PreviewStep[];
  tips: PreviewTip[];
  reason: string | null;
  personalised: boolean;
  /** False with PAYMENTS=off: plan buttons say the plan is not on sale. */
  onSale: boolean;
};

export const PageContext = createContext<PageState | null>(null);

export function usePage(): PageState {
  const state = useContext(PageContext);
  if (!state) throw new Error("offer sections render inside OfferPage");
  return state;
}

/** Ticks once a second from the server's remaining time down to 0 and stops there (the page then hides the countdown). */
export function useCountdown(initialSeconds: number | null): number {
  const [seconds, setSeconds] = useState(initialSeconds ?? 0);
  useEffect(() => {
    if (initialSeconds === null || initialSeconds <= 0) return;
    const deadline = Date.now() + initialSeconds * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSeconds(left);
      if (left === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [initialSeconds]);
  return seconds;
}

/** A countdown is live while it has time left; a run-out (or no) countdown shows nothing. */
export function useCountdownLive(): boolean {
  return usePage().seconds > 0;
}
