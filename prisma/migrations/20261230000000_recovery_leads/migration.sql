-- CreateTable
CREATE TABLE "Lead" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "visitorId" TEXT NOT NULL,
    "funnelId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "marketingConsent" BOOLEAN NOT NULL,
    "consentText" TEXT,
    "answers" TEXT NOT NULL,
    "insight" TEXT NOT NULL,
    "offerPath" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "variants" TEXT,
    "recoveryHours" TEXT NOT NULL DEFAULT '[]',
    "checkoutHours" REAL,
    "recoverySent" INTEGER NOT NULL DEFAULT 0,
    "checkoutReminded" TEXT,
    "dueAt" DATETIME,
    "leaseId" TEXT,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "purchasedAt" DATETIME,
    "unsubscribedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Lead_dueAt_idx" ON "Lead"("dueAt");

-- CreateIndex
CREATE INDEX "Lead_email_idx" ON "Lead"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Lead_visitorId_funnelId_key" ON "Lead"("visitorId", "funnelId");
