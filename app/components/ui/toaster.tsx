/**
 * The one toast system. Server toasts arrive through the root loader (after a redirect);
 * client code calls showToast(). One toast is visible at a time and leaves after 4 s.
 */
import { useEffect, useState } from "react";

export type ToastMessage = { title: string; description?: string; variant?: "default" | "destructive" };

const EVENT = "glow:toast";

export function showToast(toast: ToastMessage): void {
  window.dispatchEvent(new CustomEvent<ToastMessage>(EVENT, { detail: toast }));
}

const VISIBLE_MS = 4000;

export function Toaster({ initial }: { initial: ToastMessage | null }) {
  const [toast, setToast] = useState<ToastMessage | null>(initial);

  // A new server toast (the next page's loader) replaces the current one.
  useEffect(() => setToast(initial), [initial]);

  useEffect(() => {
    const onToast = (event: Event) => setToast((event as CustomEvent<ToastMessage>).detail);
    window.addEventListener(EVENT, onToast);
    return () => window.removeEventListener(EVENT, onToast);
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  const destructive = toast?.variant === "destructive";
  return (
    <div aria-live={destructive ? "assertive" : "polite"} className="pointer-events-none fixed inset-x-0 top-3 z-50 flex justify-center px-4">
      {toast ? (
        <div
          role={destructive ? "alert" : "status"}
          className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-2xl border px-4 py-3 shadow-soft animate-fade-in ${
            destructive ? "border-danger/30 bg-[#fdf0ef] text-danger" : "border-line bg-white text-ink"
          }`}
        >
          <div className="flex-1">
            <p className="font-semibold">{toast.title}</p>
            {toast.description ? <p className={`mt-0.5 text-sm ${destructive ? "text-danger" : "text-muted"}`}>{toast.description}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => setToast(null)}
            className="-mr-1 rounded-full px-2 text-lg leading-none text-muted hover:text-ink"
            aria-label="Dismiss"
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
