-- CreateTable
CREATE TABLE "PublishedPage" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "firstSeenAt" DATETIME NOT NULL
);
