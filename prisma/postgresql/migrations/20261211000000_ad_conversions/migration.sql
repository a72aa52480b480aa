-- CreateTable
CREATE TABLE "AdConversion" (
    "eventId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "checkoutSessionId" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "eventTime" TIMESTAMP(3) NOT NULL,
    "sourceUrl" TEXT NOT NULL,
    "userData" TEXT NOT NULL,
    "customData" TEXT NOT NULL,
    "browserShownAt" TIMESTAMP(3),
    "serverDueAt" TIMESTAMP(3),
    "serverSentAt" TIMESTAMP(3),
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AdConversion_pkey" PRIMARY KEY ("eventId")
);

-- CreateIndex
CREATE INDEX "AdConversion_serverDueAt_idx" ON "AdConversion"("serverDueAt");

-- CreateIndex
CREATE UNIQUE INDEX "AdConversion_checkoutSessionId_name_key" ON "AdConversion"("checkoutSessionId", "name");
