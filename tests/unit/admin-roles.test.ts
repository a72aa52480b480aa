import { describe, expect, it } from "vitest";
import { setMemberRole } from "~/admin/dashboard.server";
import { toSessionUser } from "~/auth/users.server";
import { db } from "~/utils/db.server";
import { takeToast } from "~/utils/toast.server";

async function account(name: string, role = "user") {
  return toSessionUser(await db.user.create({ data: { email: `${name}-${crypto.randomUUID()}@glowcoach.test`, emailVerifiedAt: new Date(), role } }));
}

describe("changing a member's role", () => {
  it("changes it, goes back to the search with a toast saying what changed", async () => {
    const admin = await account("admin", "admin");
    const member = await account("member");
    const outcome = await setMemberRole({ admin, userId: member.id, role: "admin", query: "member-" });
    expect(outcome).toMatchObject({ go: "/admin?q=member-#users" });
    const cookies = "cookies" in outcome ? outcome.cookies : [];
    const { toast } = await takeToast(new Request("http://localhost/", { headers: { Cookie: cookies[0].split(";")[0] } }));
    expect(toast).toEqual({ title: "Role changed", description: `${member.email} is now an admin.`, variant: "default" });
    expect((await db.user.findUnique({ where: { id: member.id } }))?.role).toBe("admin");
    // Without a search to go back to: the member's own address.
    expect(await setMemberRole({ admin, userId: member.id, role: "user", query: undefined })).toMatchObject({
      go: `/admin?${new URLSearchParams({ q: member.email })}#users`,
    });
  });

  it("refuses an admin's own demotion and an unknown member, changing nothing", async () => {
    const admin = await account("admin", "admin");
    expect(await setMemberRole({ admin, userId: admin.id, role: "user", query: "" })).toEqual({
      refused: true,
      status: 400,
      message: "You can't remove your own admin access.",
    });
    expect((await db.user.findUnique({ where: { id: admin.id } }))?.role).toBe("admin");
    expect(await setMemberRole({ admin, userId: "no-such-member", role: "admin", query: "" })).toEqual({
      refused: true,
      status: 404,
      message: "That member does not exist.",
    });
  });
});
