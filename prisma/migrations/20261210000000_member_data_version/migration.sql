-- CreateTable
CREATE TABLE "MemberDataVersion" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL
);

-- A member's data version moves with every change to a row their pages read (ADR 26). Triggers,
-- not application code, so no write path can forget it. A migration that rebuilds one of these
-- tables (SQLite's "RedefineTables") drops its triggers: create them again in that migration
-- (tests/unit/member-data-version.test.ts fails while any is missing).

CREATE TRIGGER "Entitlement_member_data_insert" AFTER INSERT ON "Entitlement" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "Entitlement_member_data_update" AFTER UPDATE ON "Entitlement" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId", NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "Entitlement_member_data_delete" AFTER DELETE ON "Entitlement" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "MemberAnswers_member_data_insert" AFTER INSERT ON "MemberAnswers" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "MemberAnswers_member_data_update" AFTER UPDATE ON "MemberAnswers" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId", NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "MemberAnswers_member_data_delete" AFTER DELETE ON "MemberAnswers" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "PlanCompletion_member_data_insert" AFTER INSERT ON "PlanCompletion" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "PlanCompletion_member_data_update" AFTER UPDATE ON "PlanCompletion" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId", NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "PlanCompletion_member_data_delete" AFTER DELETE ON "PlanCompletion" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "PlanStepCompletion_member_data_insert" AFTER INSERT ON "PlanStepCompletion" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "PlanStepCompletion_member_data_update" AFTER UPDATE ON "PlanStepCompletion" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId", NEW."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "PlanStepCompletion_member_data_delete" AFTER DELETE ON "PlanStepCompletion" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (OLD."userId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "EntitlementState_member_data_insert" AFTER INSERT ON "EntitlementState" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "userId", 1 FROM "Entitlement" WHERE "id" IN (NEW."entitlementId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "EntitlementState_member_data_update" AFTER UPDATE ON "EntitlementState" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "userId", 1 FROM "Entitlement" WHERE "id" IN (OLD."entitlementId", NEW."entitlementId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "EntitlementState_member_data_delete" AFTER DELETE ON "EntitlementState" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "userId", 1 FROM "Entitlement" WHERE "id" IN (OLD."entitlementId")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "User_member_data_update" AFTER UPDATE ON "User" BEGIN
    INSERT INTO "MemberDataVersion" ("userId", "version") SELECT "id", 1 FROM "User" WHERE "id" IN (NEW."id")
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
END;

CREATE TRIGGER "User_member_data_delete" AFTER DELETE ON "User" BEGIN
    DELETE FROM "MemberDataVersion" WHERE "userId" = OLD."id";
END;
