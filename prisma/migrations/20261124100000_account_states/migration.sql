-- AlterTable
ALTER TABLE "User" ADD COLUMN "emailVerifiedAt" DATETIME;
ALTER TABLE "User" ADD COLUMN "lastActedOn" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LoginToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "redirectTo" TEXT,
    "codeAttempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "supersededAt" DATETIME,
    "purpose" TEXT NOT NULL DEFAULT 'sign-in',
    "passwordHash" TEXT,
    "name" TEXT,
    "browserHash" TEXT
);
INSERT INTO "new_LoginToken" ("codeAttempts", "codeHash", "createdAt", "email", "expiresAt", "id", "redirectTo", "secretHash", "supersededAt", "usedAt") SELECT "codeAttempts", "codeHash", "createdAt", "email", "expiresAt", "id", "redirectTo", "secretHash", "supersededAt", "usedAt" FROM "LoginToken";
DROP TABLE "LoginToken";
ALTER TABLE "new_LoginToken" RENAME TO "LoginToken";
CREATE UNIQUE INDEX "LoginToken_secretHash_key" ON "LoginToken"("secretHash");
CREATE INDEX "LoginToken_email_createdAt_idx" ON "LoginToken"("email", "createdAt");
CREATE TABLE "new_Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL DEFAULT 'full',
    "checkoutSessionId" TEXT,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Session" ("createdAt", "expiresAt", "id", "userId") SELECT "createdAt", "expiresAt", "id", "userId" FROM "Session";
DROP TABLE "Session";
ALTER TABLE "new_Session" RENAME TO "Session";
CREATE INDEX "Session_userId_idx" ON "Session"("userId");
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Accounts from before verification was recorded (written by hand; plain SQL for any database):
-- an address counts as verified when one of its sign-in links or codes was used, or Google vouched
-- for it (a googleId is only stored for a verified Google address). Sessions of accounts that stay
-- pending end here: they were opened without proof of the address.
UPDATE "User" SET "emailVerifiedAt" = (SELECT MIN(t."usedAt") FROM "LoginToken" t WHERE t."email" = "User"."email" AND t."usedAt" IS NOT NULL);
UPDATE "User" SET "emailVerifiedAt" = "createdAt" WHERE "emailVerifiedAt" IS NULL AND "googleId" IS NOT NULL;
DELETE FROM "Session" WHERE "userId" IN (SELECT "id" FROM "User" WHERE "emailVerifiedAt" IS NULL);
