/** The two answers to the consent question, equal in weight, shared by the banner and /cookie-settings. */
export const CONSENT_ACTION = "/cookie-settings";

export function ConsentButtons() {
  return (
    <div className="grid grid-cols-2 gap-3">
      <button type="submit" name="choice" value="denied" className="btn-secondary min-h-11 w-full px-4 py-2">
        Decline
      </button>
      <button type="submit" name="choice" value="granted" className="btn-secondary min-h-11 w-full px-4 py-2">
        Accept
      </button>
    </div>
  );
}
