-- /profile shows a member's completed refunds, and a page stored in memory is answered while the
-- member's data version holds (ADR 26): a refund row moves the version of the member whose
-- entitlement it refunds, like every other row a member's pages read (ADR 40). The function is
-- the one of migration 20261210000000_member_data_version, with Refund found like EntitlementState.
CREATE OR REPLACE FUNCTION "member_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  members TEXT[];
BEGIN
  IF TG_TABLE_NAME = 'User' THEN
    IF TG_OP = 'DELETE' THEN
      DELETE FROM "MemberDataVersion" WHERE "userId" = OLD."id";
      RETURN NULL;
    END IF;
    members := ARRAY[NEW."id"];
  ELSIF TG_TABLE_NAME IN ('EntitlementState', 'Refund') THEN
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

CREATE CONSTRAINT TRIGGER "Refund_member_data" AFTER INSERT OR UPDATE OR DELETE ON "Refund"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "member_data_changed"();
