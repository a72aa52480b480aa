/** The three steps after a sign-in link is sent (login and payment success). */
export function CheckEmailSteps() {
  const steps = [
    "Check your inbox (and your spam folder) for an e-mail from us.",
    "Click the 'Access My Skincare Plan' button in the e-mail.",
    "On the page that opens, press 'Sign in' and you're in.",
  ];
  return (
    <ol className="mt-6 grid gap-3 text-left">
      {steps.map((step, i) => (
        <li key={step} className="flex items-start gap-3">
          <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-rose-100 text-sm font-semibold text-rose-700">{i + 1}</span>
          <span className="pt-0.5">{step}</span>
        </li>
      ))}
    </ol>
  );
}
