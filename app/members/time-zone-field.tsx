import { useEffect, useState } from "react";

/**
 * The browser's time zone as a hidden form field on the routine forms. Empty without
 * JavaScript; the server then uses the gc_tz cookie or the zone it already has.
 */
export function TimeZoneField() {
  const [timeZone, setTimeZone] = useState("");
  useEffect(() => {
    try {
      setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "");
    } catch {
      // Very old browsers: the server keeps the stored zone.
    }
  }, []);
  return <input type="hidden" name="timeZone" value={timeZone} />;
}
