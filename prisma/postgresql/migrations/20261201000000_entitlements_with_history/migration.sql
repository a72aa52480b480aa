-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "routinePlanId" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "activePlanId" TEXT;

-- CreateTable
CREATE TABLE "Entitlement" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "offerId" TEXT NOT NULL,
    "routinePlanId" TEXT NOT NULL,
    "stripeCustomerId" TEXT,
    "stripeSubscriptionId" TEXT,
    "stripePaymentIntentId" TEXT,
    "stripeCheckoutSessionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Entitlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EntitlementState" (
    "id" SERIAL NOT NULL,
    "entitlementId" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "planName" TEXT NOT NULL,
    "priceMinor" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "currentPeriodEnd" TIMESTAMP(3),
    "cancelAtPeriodEnd" BOOLEAN NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EntitlementState_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MemberAnswers" (
    "userId" TEXT NOT NULL,
    "funnelId" TEXT NOT NULL,
    "answers" TEXT NOT NULL,
    "answeredAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MemberAnswers_pkey" PRIMARY KEY ("userId","funnelId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_stripeSubscriptionId_key" ON "Entitlement"("stripeSubscriptionId");

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_stripePaymentIntentId_key" ON "Entitlement"("stripePaymentIntentId");

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_stripeCheckoutSessionId_key" ON "Entitlement"("stripeCheckoutSessionId");

-- CreateIndex
CREATE INDEX "Entitlement_userId_idx" ON "Entitlement"("userId");

-- CreateIndex
CREATE INDEX "Entitlement_stripeCustomerId_idx" ON "Entitlement"("stripeCustomerId");

-- CreateIndex
CREATE INDEX "EntitlementState_entitlementId_at_idx" ON "EntitlementState"("entitlementId", "at");

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EntitlementState" ADD CONSTRAINT "EntitlementState_entitlementId_fkey" FOREIGN KEY ("entitlementId") REFERENCES "Entitlement"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemberAnswers" ADD CONSTRAINT "MemberAnswers_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing purchases become entitlements with their current state as the first state (plain
-- INSERT ... SELECT, valid on SQLite and PostgreSQL). Each offer grants the routine plan below.
INSERT INTO "Entitlement" ("id", "userId", "offerId", "routinePlanId", "stripeCustomerId", "stripeSubscriptionId", "stripeCheckoutSessionId", "createdAt")
SELECT "id", "userId", COALESCE("offerId", 'skincare'),
       CASE COALESCE("offerId", 'skincare')
         WHEN 'makeup-prep' THEN 'makeup-prep'
         WHEN 'crease-free' THEN 'crease-free'
         WHEN 'cakey-makeup' THEN 'no-more-cakey'
         ELSE 'clear-healthy-skin'
       END,
       "stripeCustomerId", "stripeSubscriptionId", "stripeCheckoutSessionId", "createdAt"
FROM "Subscription";

INSERT INTO "EntitlementState" ("entitlementId", "tier", "planId", "planName", "priceMinor", "currency", "status", "startedAt", "currentPeriodEnd", "cancelAtPeriodEnd", "at", "reason", "recordedAt")
SELECT "id", "tier", COALESCE("planId", "tier"), "planName", "priceMinor", "currency", "status", "startedAt", "currentPeriodEnd", "cancelAtPeriodEnd", "stateAt", 'migrated', "updatedAt"
FROM "Subscription";

-- DropTable (after its rows were carried over above)
DROP TABLE "Subscription";
