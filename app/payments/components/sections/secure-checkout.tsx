/** The line about the secure checkout under the page. */
import { ShieldIcon } from "~/components/ui/icons";
import type { SectionProps } from "./section-props";

export function SecureCheckout({ section }: SectionProps<"secureCheckout">) {
  return (
    <p className="mx-auto mt-10 flex max-w-2xl items-center justify-center gap-2 px-5 text-center text-sm text-muted">
      <ShieldIcon className="h-4 w-4 shrink-0 text-sage" />
      {section.text}
    </p>
  );
}
