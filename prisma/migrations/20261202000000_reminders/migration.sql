-- CreateTable
CREATE TABLE "ReminderJob" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "dueAt" DATETIME NOT NULL,
    "leaseId" TEXT,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastSentOn" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ReminderJob_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT,
    "googleId" TEXT,
    "role" TEXT NOT NULL DEFAULT 'user',
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "emailVerifiedAt" DATETIME,
    "lastActedOn" TEXT,
    "activePlanId" TEXT,
    "reminderOn" BOOLEAN NOT NULL DEFAULT false,
    "reminderHour" INTEGER NOT NULL DEFAULT 8
);
INSERT INTO "new_User" ("activePlanId", "createdAt", "email", "emailVerifiedAt", "googleId", "id", "lastActedOn", "name", "passwordHash", "role", "timeZone") SELECT "activePlanId", "createdAt", "email", "emailVerifiedAt", "googleId", "id", "lastActedOn", "name", "passwordHash", "role", "timeZone" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE UNIQUE INDEX "User_googleId_key" ON "User"("googleId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ReminderJob_dueAt_idx" ON "ReminderJob"("dueAt");
