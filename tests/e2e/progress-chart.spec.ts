/**
 * The quiz result's typical-progress chart (issue 30, item 4; ADR 42): drawn on the server from
 * the visitor's answers and the plan's progress content, so it reads the same without
 * JavaScript, says it is typical, and gives its numbers as text too.
 */
import { expect, test, type Page } from "@playwright/test";
import { takeQuiz } from "./quiz-helpers";

/** The numbers in the chart's table, week 0 onwards. */
async function tableScores(page: Page): Promise<number[]> {
  await page.getByText("See the numbers", { exact: true }).click();
  const table = page.getByRole("table", { name: /typical score from 0 to 100, by week/ });
  await expect(table.getByRole("rowheader", { name: "Now" })).toBeVisible();
  return (await table.getByRole("cell").allTextContents()).map(Number);
}

test.describe("the result's progress chart", () => {
  test("shows the visitor's own typical progress as a labelled picture and as numbers @no-js @phone", async ({ page, baseURL }) => {
    await takeQuiz(page, baseURL!, "/quiz", { skinType: "oily", mainConcern: ["acne"], timeWillingness: "5-10" });
    await expect(page.getByRole("heading", { level: 1, name: "Your personalized clear skin plan is ready" })).toBeVisible();

    const card = page.getByRole("region", { name: "How skin like yours typically changes" });
    await expect(card.getByText("Typical, not promised", { exact: true })).toBeVisible();
    await expect(card.getByText("Clear, comfortable skin over 8 weeks with Clear & Healthy Skin, drawn from your answers:")).toBeVisible();
    await expect(card.getByRole("list", { name: "Your answers" }).getByRole("listitem")).toHaveText(["oily skin", "breakouts", "5-10 minutes"]);

    const picture = card.getByRole("img", { name: "How skin like yours typically changes (typical, not promised)", exact: true });
    await expect(picture).toBeVisible();
    await expect(picture).toHaveAccessibleDescription("Clear, comfortable skin, on a scale of 0 to 100: typically 40 now, 62 by week 4 and 70 by week 8.");
    await expect(card.locator("figcaption")).toContainText("A typical path, not a promise");

    expect(await tableScores(page)).toEqual([40, 47, 53, 58, 62, 65, 67, 69, 70]);
  });

  test("other answers draw another curve: sensitive skin, fine lines, under 5 minutes a day @no-js", async ({ page, baseURL }) => {
    await takeQuiz(page, baseURL!, "/quiz", { skinType: "sensitive", mainConcern: ["acne", "fine-lines"], timeWillingness: "under-5" });
    const picture = page.getByRole("img", { name: /typical, not promised/ });
    await expect(picture).toHaveAccessibleDescription("Clear, comfortable skin, on a scale of 0 to 100: typically 35 now, 47 by week 4 and 54 by week 8.");
    expect(await tableScores(page)).toEqual([35, 39, 42, 45, 47, 49, 51, 52, 54]);
  });

  test("a quiz whose plan has no progress content shows no chart", async ({ page, baseURL }) => {
    await takeQuiz(page, baseURL!, "/crease-crisis", {});
    await expect(page.locator("main h1")).toBeVisible();
    await expect(page.getByText("Typical, not promised")).toHaveCount(0);
  });
});
