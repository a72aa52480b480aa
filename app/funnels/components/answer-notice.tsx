import { useNavigate } from "@remix-run/react";
import { useEffect, useSyncExternalStore } from "react";
import { noteStepShown, noticeNow, onNotice, registerNavigate, resumeUnsent } from "../answer-queue";
import type { StepView } from "../view";

/**
 * Connects a funnel step's page to the answers on their way (app/funnels/answer-queue.ts): how
 * to move when the server says so, what the server showed, and answers a reload interrupted.
 */
export function useAnswerQueue(view: StepView) {
  const navigate = useNavigate();
  useEffect(() => registerNavigate((to, options) => navigate(to, options)), [navigate]);
  useEffect(() => noteStepShown(view), [view]);
  useEffect(resumeUnsent, []);
}

/** Why the page is not where the visitor's last tap took it: calm, polite, and read out once. */
export function AnswerNotice() {
  const notice = useSyncExternalStore(onNotice, noticeNow, () => null);
  return (
    <div role="status" className="mx-auto w-full max-w-xl px-5 empty:hidden">
      {notice ? <p className="mt-6 rounded-2xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm font-medium text-ink sm:mt-10">{notice}</p> : null}
    </div>
  );
}
