/**
 * A visitor's answers for one funnel, kept server-side in a signed cookie (one per
 * funnel), so a quiz works with JavaScript off and survives reloads. A tampered or
 * unreadable cookie counts as no answers.
 */
import { signedCookie } from "~/utils/cookies.server";
import type { Cookie } from "@remix-run/node";
import { z } from "zod";
import { sanitizeAnswers } from "./engine";
import type { Funnel } from "../content-model/funnel";
import { logger } from "~/utils/logger.server";

const AnswerValues = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

const StoredState = z.object({
  answers: AnswerValues,
  /** Set when the result has been worked out; answers are cleared then. */
  result: z.object({ insight: z.string(), answers: AnswerValues, at: z.string() }).optional(),
  lead: z.string().max(64).optional(),
});

export type FunnelState = {
  answers: Record<string, string | string[]>;
  result?: { insight: string; answers: Record<string, string | string[]>; at: string };
  /** The email_captured event's id, from the e-mail step until the result is worked out (its pixel Lead). */
  lead?: string;
};

export const EMPTY_STATE: FunnelState = { answers: {} };

const cookies = new Map<string, Cookie>();

function funnelCookie(funnelId: string): Cookie {
  let cookie = cookies.get(funnelId);
  if (!cookie) {
    cookie = signedCookie(`gc_funnel_${funnelId}`, 60 * 60 * 24 * 30);
    cookies.set(funnelId, cookie);
  }
  return cookie;
}

export async function readFunnelState(header: string | null, funnel: Funnel): Promise<FunnelState> {
  const cookie = funnelCookie(funnel.id);
  if (!header?.includes(`${cookie.name}=`)) return EMPTY_STATE;
  const raw = await cookie.parse(header).catch(() => null);
  const parsed = StoredState.safeParse(raw);
  if (!parsed.success) {
    logger.warn(`[funnel] ignoring an unreadable or tampered answers cookie for "${funnel.id}"`);
    return EMPTY_STATE;
  }
  const { answers, result, lead } = parsed.data;
  return {
    answers: sanitizeAnswers(funnel, answers),
    result: result && { ...result, answers: sanitizeAnswers(funnel, result.answers) },
    ...(lead ? { lead } : {}),
  };
}

export function writeFunnelState(funnel: Funnel, state: FunnelState): Promise<string> {
  return funnelCookie(funnel.id).serialize(state);
}
