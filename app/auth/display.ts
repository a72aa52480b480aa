/** How a member is named on screen: the part of the e-mail before the @. */
export function displayName(email: string | null | undefined): string {
  const local = email?.split("@")[0]?.trim();
  return local ? local : "there";
}

/** Avatar initials: the first two letters of the display name, upper-cased; "U" when unknown. */
export function initials(email: string | null | undefined): string {
  const local = email?.split("@")[0]?.trim();
  return local ? local.slice(0, 2).toUpperCase() : "U";
}
