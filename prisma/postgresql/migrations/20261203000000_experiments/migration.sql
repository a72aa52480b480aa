-- AlterTable
ALTER TABLE "AnalyticsEvent" ADD COLUMN     "variants" TEXT;

-- CreateTable
CREATE TABLE "ExperimentAssignment" (
    "experimentId" TEXT NOT NULL,
    "visitorId" TEXT NOT NULL,
    "variant" TEXT NOT NULL,
    "userId" TEXT,
    "assignedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExperimentAssignment_pkey" PRIMARY KEY ("experimentId","visitorId")
);

-- CreateIndex
CREATE INDEX "ExperimentAssignment_visitorId_idx" ON "ExperimentAssignment"("visitorId");

-- CreateIndex
CREATE INDEX "ExperimentAssignment_userId_idx" ON "ExperimentAssignment"("userId");
