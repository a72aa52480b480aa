-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "recoveryUrl" TEXT,
ADD COLUMN     "recoveryUrlExpiresAt" TIMESTAMP(3);
