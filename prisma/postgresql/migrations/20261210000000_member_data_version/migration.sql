-- CreateTable
CREATE TABLE "MemberDataVersion" (
    "userId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,

    CONSTRAINT "MemberDataVersion_pkey" PRIMARY KEY ("userId")
);

-- A member's data version moves with every change to a row their pages read (ADR 26). Triggers,
-- not application code, so no write path can forget it. They run at commit (deferred
-- constraint triggers): the version row is locked only while a transaction commits, never
-- while it still waits for other rows, so the extra lock cannot deadlock two transactions
-- of one member.
CREATE FUNCTION "member_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members TEXT[];
BEGIN
  IF TG_TABLE_NAME = 'User' THEN
    IF TG_OP = 'DELETE' THEN
      DELETE FROM "MemberDataVersion" WHERE "userId" = OLD."id";
      RETURN NULL;
    END IF;
    members := ARRAY[NEW."id"];
  ELSIF TG_TABLE_NAME = 'EntitlementState' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg("userId") INTO members FROM "Entitlement" WHERE "id" = NEW."entitlementId";
    ELSIF TG_OP = 'UPDATE' THEN
      SELECT array_agg("userId") INTO members FROM "Entitlement" WHERE "id" IN (OLD."entitlementId", NEW."entitlementId");
    ELSE
      SELECT array_agg("userId") INTO members FROM "Entitlement" WHERE "id" = OLD."entitlementId";
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    members := ARRAY[NEW."userId"];
  ELSIF TG_OP = 'UPDATE' THEN
    members := ARRAY[OLD."userId", NEW."userId"];
  ELSE
    members := ARRAY[OLD."userId"];
  END IF;
  -- A user deleted in the same transaction has no version left to move.
  INSERT INTO "MemberDataVersion" ("userId", "version")
    SELECT "id", 1 FROM "User" WHERE "id" = ANY(members)
    ON CONFLICT ("userId") DO UPDATE SET "version" = "MemberDataVersion"."version" + 1;
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "Entitlement_member_data" AFTER INSERT OR UPDATE OR DELETE ON "Entitlement"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();

CREATE CONSTRAINT TRIGGER "EntitlementState_member_data" AFTER INSERT OR UPDATE OR DELETE ON "EntitlementState"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();

CREATE CONSTRAINT TRIGGER "MemberAnswers_member_data" AFTER INSERT OR UPDATE OR DELETE ON "MemberAnswers"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();

CREATE CONSTRAINT TRIGGER "PlanCompletion_member_data" AFTER INSERT OR UPDATE OR DELETE ON "PlanCompletion"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();

CREATE CONSTRAINT TRIGGER "PlanStepCompletion_member_data" AFTER INSERT OR UPDATE OR DELETE ON "PlanStepCompletion"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();

CREATE CONSTRAINT TRIGGER "User_member_data" AFTER UPDATE OR DELETE ON "User"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();
