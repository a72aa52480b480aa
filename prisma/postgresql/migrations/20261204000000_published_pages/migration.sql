-- CreateTable
CREATE TABLE "PublishedPage" (
    "path" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "firstSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PublishedPage_pkey" PRIMARY KEY ("path")
);
