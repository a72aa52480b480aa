-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN "saveCardAgreed" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "CheckoutSession" ADD COLUMN "testCard" TEXT;
ALTER TABLE "CheckoutSession" ADD COLUMN "followsCheckoutId" TEXT;
