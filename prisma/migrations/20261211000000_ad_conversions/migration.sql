-- CreateTable
CREATE TABLE "AdConversion" (
    "eventId" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "checkoutSessionId" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "eventTime" DATETIME NOT NULL,
    "sourceUrl" TEXT NOT NULL,
    "userData" TEXT NOT NULL,
    "customData" TEXT NOT NULL,
    "browserShownAt" DATETIME,
    "serverDueAt" DATETIME,
    "serverSentAt" DATETIME,
    "leaseId" TEXT,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "AdConversion_serverDueAt_idx" ON "AdConversion"("serverDueAt");

-- CreateIndex
CREATE UNIQUE INDEX "AdConversion_checkoutSessionId_name_key" ON "AdConversion"("checkoutSessionId", "name");
