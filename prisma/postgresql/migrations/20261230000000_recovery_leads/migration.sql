-- CreateTable
CREATE TABLE "Lead" (
    "id" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "funnelId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "marketingConsent" BOOLEAN NOT NULL,
    "consentText" TEXT,
    "answers" TEXT NOT NULL,
    "insight" TEXT NOT NULL,
    "offerPath" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "variants" TEXT,
    "recoveryHours" TEXT NOT NULL DEFAULT '[]',
    "checkoutHours" DOUBLE PRECISION,
    "recoverySent" INTEGER NOT NULL DEFAULT 0,
    "checkoutReminded" TEXT,
    "dueAt" TIMESTAMP(3),
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "purchasedAt" TIMESTAMP(3),
    "unsubscribedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lead_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Lead_dueAt_idx" ON "Lead"("dueAt");

-- CreateIndex
CREATE INDEX "Lead_email_idx" ON "Lead"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Lead_visitorId_funnelId_key" ON "Lead"("visitorId", "funnelId");
