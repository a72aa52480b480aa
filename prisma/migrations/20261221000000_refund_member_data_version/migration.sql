-- /profile shows a member's completed refunds, and a page stored in memory is answered while the
-- member's data version holds (ADR 26): a refund row moves the version of the member whose
-- entitlement it refunds, like every other row a member's pages read (ADR 40).

CREATE TRIGGER "Refund_member_data_insert" AFTER INSERT ON "Refund" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "userId", 1 FROM "Entitlement" WHERE "id" IN (NEW."entitlementId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "Refund_member_data_update" AFTER UPDATE ON "Refund" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "userId", 1 FROM "Entitlement" WHERE "id" IN (OLD."entitlementId", NEW."entitlementId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "Refund_member_data_delete" AFTER DELETE ON "Refund" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "userId", 1 FROM "Entitlement" WHERE "id" IN (OLD."entitlementId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;
