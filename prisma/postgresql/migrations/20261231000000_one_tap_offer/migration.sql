-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "followsCheckoutId" TEXT,
ADD COLUMN     "saveCardAgreed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "testCard" TEXT;
