-- CreateTable
CREATE TABLE "RateLimitKey" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RequestCount" (
    "key" TEXT NOT NULL,
    "windowStart" DATETIME NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("key", "windowStart")
);

-- CreateTable
CREATE TABLE "ContentVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "version" INTEGER NOT NULL,
    "changedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "RateLimitKey_updatedAt_idx" ON "RateLimitKey"("updatedAt");

-- CreateIndex
CREATE INDEX "RequestCount_windowStart_idx" ON "RequestCount"("windowStart");
