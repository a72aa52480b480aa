/**
 * Accounts belong to whoever holds the e-mail address. The rules, as pure functions over
 * plain values, so each transition of docs/decisions/0012-account-states.md is tested
 * without a database or a request; the server modules call these and do the writes.
 *
 * Account states:
 * - pending: the address was typed (a registration, a checkout), nobody has proved it yet.
 * - verified: an e-mailed link or code was used, or Google vouched for the address.
 *
 * Session kinds:
 * - full: a verified account, everything its role allows.
 * - purchase: the browser that just paid for a pending account: that purchase's routine and
 *   home, nothing that reads or changes the account itself.
 */

export type AccountState = "none" | "pending" | "verified";
export type SessionKind = "full" | "purchase";
export type Role = "user" | "admin";

export function accountState(account: { emailVerifiedAt: Date | null } | null): AccountState {
  if (!account) return "none";
  return account.emailVerifiedAt ? "verified" : "pending";
}

/** How an address was proven. A typed password proves nothing about the address. */
export type Proof = "email-link" | "email-code" | "google";

export type VerifiedSignIn = {
  /** True the first time the address is proven: the account changes hands to the mailbox owner. */
  firstVerification: boolean;
  /** End every session opened before this one (only at the first verification). */
  endOtherSessions: boolean;
  /** The password after sign-in: a string to store, null to remove, undefined to keep. */
  passwordHash: string | null | undefined;
  /** The name after sign-in, or undefined to keep. */
  name: string | undefined;
  role: Role;
};

/**
 * What a proven sign-in does to the account. The first proof hands the account to the
 * mailbox owner: sessions opened before it end, and a password set before it is dropped,
 * except the one chosen at a registration confirmed in the browser that registered.
 * Later sign-ins change nothing but the role from ADMIN_EMAILS.
 */
export function verifiedSignIn(input: {
  state: AccountState;
  email: string;
  storedRole: Role;
  adminEmails: readonly string[];
  /** A registration confirmed in the browser that made it (link or code): its password and name. */
  confirmedRegistration?: { passwordHash: string; name: string | null } | null;
}): VerifiedSignIn {
  const first = input.state !== "verified";
  // A registration's password only ever applies at the first proof of the address.
  const registration = first ? (input.confirmedRegistration ?? null) : null;
  return {
    firstVerification: first,
    endOtherSessions: input.state === "pending",
    passwordHash: first ? (registration?.passwordHash ?? null) : undefined,
    name: registration?.name ?? undefined,
    role: roleAtSignIn(input.email, input.storedRole, input.adminEmails),
  };
}

/** ADMIN_EMAILS grants admin at a verified sign-in, never before; otherwise the stored role stays. */
export function roleAtSignIn(email: string, storedRole: Role, adminEmails: readonly string[]): Role {
  return adminEmails.includes(email) ? "admin" : storedRole;
}

/** Which e-mail a registration sends. The page answers the same either way. */
export function registrationEmail(state: AccountState): "confirm-registration" | "account-exists" {
  return state === "verified" ? "account-exists" : "confirm-registration";
}

/** Password sign-in: only a verified account's own password, whatever is stored. */
export function passwordUsable(
  account: { emailVerifiedAt: Date | null; passwordHash: string | null } | null,
): account is { emailVerifiedAt: Date; passwordHash: string } {
  return accountState(account) === "verified" && !!account?.passwordHash;
}

export type CheckoutWelcome =
  /** Already signed in to the buyer's account here: nothing to add. */
  | "already-signed-in"
  /** A session for this purchase only, until the address is verified. */
  | "purchase-session"
  /** No session: the buyer signs in with the e-mailed link (or its code). */
  | "sign-in-by-link";

/**
 * What the browser that paid gets. A checkout's e-mail is typed, so it proves nothing: an
 * address already verified is never signed in by a checkout, and a browser signed in to
 * another account keeps that session.
 */
export function checkoutWelcome(input: {
  account: AccountState;
  browserSession: { kind: SessionKind; userId: string } | null;
  buyerId: string;
}): CheckoutWelcome {
  if (input.browserSession?.kind === "full" && input.browserSession.userId === input.buyerId) return "already-signed-in";
  if (input.account === "verified") return "sign-in-by-link";
  if (input.browserSession?.kind === "full") return "sign-in-by-link";
  return "purchase-session";
}

/** The parts of the app a session may open. */
export type Area = "home" | "routine" | "tutorial" | "profile" | "billing" | "admin";

/**
 * A full session opens what its role allows; a purchase session opens home and the routine
 * of the plan it paid for. `planPaidFor` says whether the routine asked for is that plan.
 */
export function mayOpen(session: { kind: SessionKind; role: Role }, area: Area, planPaidFor = false): boolean {
  if (session.kind === "full") return area !== "admin" || session.role === "admin";
  if (area === "home") return true;
  return area === "routine" && planPaidFor;
}
