-- AlterTable
ALTER TABLE "User" ADD COLUMN     "reminderHour" INTEGER NOT NULL DEFAULT 8,
ADD COLUMN     "reminderOn" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ReminderJob" (
    "userId" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastSentOn" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReminderJob_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE INDEX "ReminderJob_dueAt_idx" ON "ReminderJob"("dueAt");

-- AddForeignKey
ALTER TABLE "ReminderJob" ADD CONSTRAINT "ReminderJob_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
