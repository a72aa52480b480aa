/**
 * An error shown in place, with its heading: the look of the destructive toast, for pages
 * that answer without JavaScript (and for errors that stay on the page). Announced as an alert.
 */
export function ErrorBox({ title, description, className }: { title: string; description: string; className?: string }) {
  return (
    <div role="alert" className={`${className ? `${className} ` : ""}rounded-2xl border border-danger/30 bg-[#fdf0ef] px-4 py-3 text-danger`}>
      <p className="font-semibold">{title}</p>
      <p className="text-sm">{description}</p>
    </div>
  );
}
