/**
 * 'Continue with Google'. Without JavaScript a plain form posts to /auth/google and the page
 * goes to Google. With it, the same form posts into a 500x600 popup; the popup's
 * /auth/callback page messages us, and we also poll every 800 ms for it closing; after 120 s
 * an open popup is closed and the button resets.
 */
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { showToast } from "~/components/ui/toaster";
import { GIVE_UP_MS, isAuthMessage, POLL_MS, popupFeatures, POPUP_NAME } from "./google-popup";

const FAILED = { title: "Error", description: "Failed to sign in with Google. Please try again.", variant: "destructive" } as const;

export function GoogleButton({ redirectTo }: { redirectTo: string }) {
  const [busy, setBusy] = useState(false);
  const popupField = useRef<HTMLInputElement>(null);
  const stop = useRef<() => void>(() => {});

  useEffect(() => () => stop.current(), []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const popup = window.open("", POPUP_NAME, popupFeatures({ x: window.screenX, y: window.screenY, width: window.outerWidth, height: window.outerHeight }));
    if (!popup) {
      // Popup blocked: let the form go to Google in this window instead.
      form.removeAttribute("target");
      if (popupField.current) popupField.current.value = "0";
      return;
    }
    form.target = POPUP_NAME;
    if (popupField.current) popupField.current.value = "1";
    // After this event, so the submission is already under way when the button disables.
    setTimeout(() => setBusy(true), 0);

    let done = false;
    const finish = (outcome: "success" | "error" | "closed") => {
      if (done) return;
      done = true;
      stop.current();
      if (outcome === "success") window.location.assign(redirectTo);
      else {
        if (outcome === "error") showToast(FAILED);
        setBusy(false);
      }
    };
    const onMessage = (message: MessageEvent) => {
      if (message.origin !== window.location.origin || !isAuthMessage(message.data)) return;
      finish(message.data.status);
    };
    // The popup may close before its message arrives (or be closed by hand): ask the server.
    const poll = setInterval(async () => {
      if (!popup.closed) return;
      clearInterval(poll);
      try {
        const status = (await (await fetch("/auth/status", { cache: "no-store" })).json()) as { signedIn?: boolean };
        finish(status.signedIn ? "success" : "closed");
      } catch {
        finish("error");
      }
    }, POLL_MS);
    const giveUp = setTimeout(() => {
      if (!popup.closed) popup.close();
      finish("closed");
    }, GIVE_UP_MS);
    window.addEventListener("message", onMessage);
    stop.current = () => {
      clearInterval(poll);
      clearTimeout(giveUp);
      window.removeEventListener("message", onMessage);
    };
  }

  return (
    <Form method="post" action="/auth/google" reloadDocument onSubmit={onSubmit}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <input ref={popupField} type="hidden" name="popup" value="0" />
      <button type="submit" className="btn-secondary w-full" disabled={busy} aria-busy={busy}>
        <GoogleMark />
        {busy ? "Waiting for Google..." : "Continue with Google"}
      </button>
    </Form>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.7Z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24Z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1Z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9Z" />
    </svg>
  );
}
