-- CreateTable
CREATE TABLE "PlanCompletion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "PlanCompletion_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PlanStepCompletion" (
    "userId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("userId", "planId", "date", "step"),
    CONSTRAINT "PlanStepCompletion_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "PlanCompletion_userId_planId_date_key" ON "PlanCompletion"("userId", "planId", "date");

