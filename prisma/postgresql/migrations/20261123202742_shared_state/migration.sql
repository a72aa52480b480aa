-- CreateTable
CREATE TABLE "RateLimitKey" (
    "key" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RateLimitKey_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "RequestCount" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RequestCount_pkey" PRIMARY KEY ("key","windowStart")
);

-- CreateTable
CREATE TABLE "ContentVersion" (
    "id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ContentVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RateLimitKey_updatedAt_idx" ON "RateLimitKey"("updatedAt");

-- CreateIndex
CREATE INDEX "RequestCount_windowStart_idx" ON "RequestCount"("windowStart");
