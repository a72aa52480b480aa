import { expect, test } from "@playwright/test";

test("the landing page leads to the skin quiz, at / and /app @no-js @phone @phone-no-js", async ({ page }) => {
  for (const path of ["/", "/app"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Skin you feel good in, one simple routine at a time");
    await expect(page.getByRole("link", { name: "Take the Skin Quiz" })).toHaveAttribute("href", "/quiz");
  }
  await page.getByRole("link", { name: "Take the Skin Quiz" }).click();
  await expect(page).toHaveURL("/quiz");
  await expect(page.getByRole("button", { name: "Get My Clear Skin Plan" })).toBeVisible();
});

for (const path of ["/does-not-exist", "/quiz-nope/3", "/a/b/c/d"]) {
  test(`an unknown address (${path}) shows the not-found screen with a 404`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to Home" }).click();
    await expect(page).toHaveURL("/");
  });
}
