/** The local test checkout's pages say so at the top: nothing there charges a card. */
export function TestModeBadge({ className = "" }: { className?: string }) {
  return (
    <p
      className={`mx-auto flex w-fit items-center gap-2 rounded-full border border-gold/40 bg-[#fbf3e4] px-4 py-1.5 text-sm font-semibold text-[#7a5a22] ${className}`}
    >
      Test mode — no real charge
    </p>
  );
}
