-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN "recoveryUrl" TEXT;
ALTER TABLE "CheckoutSession" ADD COLUMN "recoveryUrlExpiresAt" DATETIME;
