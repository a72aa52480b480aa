-- AlterTable
ALTER TABLE "LoginToken" ADD COLUMN     "browserHash" TEXT,
ADD COLUMN     "name" TEXT,
ADD COLUMN     "passwordHash" TEXT,
ADD COLUMN     "purpose" TEXT NOT NULL DEFAULT 'sign-in';

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "checkoutSessionId" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'full';

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "emailVerifiedAt" TIMESTAMP(3),
ADD COLUMN     "lastActedOn" TEXT;

-- Accounts from before verification was recorded (written by hand; plain SQL for any database):
-- an address counts as verified when one of its sign-in links or codes was used, or Google vouched
-- for it (a googleId is only stored for a verified Google address). Sessions of accounts that stay
-- pending end here: they were opened without proof of the address.
UPDATE "User" SET "emailVerifiedAt" = (SELECT MIN(t."usedAt") FROM "LoginToken" t WHERE t."email" = "User"."email" AND t."usedAt" IS NOT NULL);
UPDATE "User" SET "emailVerifiedAt" = "createdAt" WHERE "emailVerifiedAt" IS NULL AND "googleId" IS NOT NULL;
DELETE FROM "Session" WHERE "userId" IN (SELECT "id" FROM "User" WHERE "emailVerifiedAt" IS NULL);
