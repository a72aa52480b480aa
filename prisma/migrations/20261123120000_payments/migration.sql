-- CreateTable
CREATE TABLE "CheckoutSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "offerId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "planName" TEXT NOT NULL,
    "amountMinor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "cancelPath" TEXT NOT NULL,
    "email" TEXT,
    "userId" TEXT,
    "startedByUserId" TEXT,
    "context" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" DATETIME NOT NULL,
    "completedAt" DATETIME,
    "welcomedAt" DATETIME,
    "signedInHere" BOOLEAN NOT NULL DEFAULT false,
    "emailStatus" TEXT
);

-- CreateTable
CREATE TABLE "ProcessedStripeEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "processedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "CheckoutSession_visitorId_createdAt_idx" ON "CheckoutSession"("visitorId", "createdAt");

