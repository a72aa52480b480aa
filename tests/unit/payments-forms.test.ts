/** The billing portal forms, read as a page (or a tampered request) posts them. */
import { describe, expect, it } from "vitest";
import type { $ZodType } from "zod/v4/core";
import { PortalForm, SwitchForm, TestPortalForm } from "~/payments/forms.server";
import { parseForm } from "~/utils/form.server";

async function read(schema: $ZodType, body: string, contentType = "application/x-www-form-urlencoded") {
  const request = new Request("http://localhost/billing/portal", { method: "POST", body, headers: { "Content-Type": contentType } });
  const { submission, status } = await parseForm(request, schema);
  if (submission.status === "success") return { value: submission.value };
  return { status, error: submission.reply().error };
}

const FROM_PAGE = "Please use the buttons on the page.";

describe("'Manage Subscription' and 'Switch to …'", () => {
  it("reads the subscription and the plan the page names, or neither (the member's first subscription)", async () => {
    expect(await read(PortalForm, "entitlement=ent_1&switchTo=monthly")).toEqual({ value: { entitlement: "ent_1", switchTo: "monthly" } });
    expect(await read(PortalForm, "")).toEqual({ value: {} });
  });

  it("refuses ids no page writes, and bodies that are not a form", async () => {
    expect(await read(PortalForm, "entitlement=..%2Fx")).toEqual({ status: 400, error: { entitlement: [FROM_PAGE] } });
    expect(await read(PortalForm, `switchTo=${"a".repeat(65)}`)).toEqual({ status: 400, error: { switchTo: [FROM_PAGE] } });
    expect(await read(PortalForm, "{}", "application/json")).toEqual({ status: 415, error: { "": ["Please submit the form from the page."] } });
  });
});

describe("the local test portal's buttons", () => {
  it("reads a cancel and a resume; a switch is the switch page's form", async () => {
    expect(await read(SwitchForm, "entitlement=ent_1&planId=annual")).toEqual({ value: { entitlement: "ent_1", planId: "annual" } });
    expect(await read(TestPortalForm, "intent=cancel&entitlement=ent_1")).toEqual({ value: { intent: "cancel", entitlement: "ent_1" } });
    expect(await read(TestPortalForm, "intent=resume")).toEqual({ value: { intent: "resume" } });
  });

  it("refuses other buttons (a switch among them), and a switch without a plan", async () => {
    expect(await read(TestPortalForm, "intent=delete&entitlement=ent_1")).toEqual({ status: 400, error: { "": [FROM_PAGE] } });
    expect(await read(TestPortalForm, "entitlement=ent_1")).toEqual({ status: 400, error: { "": [FROM_PAGE] } });
    expect(await read(TestPortalForm, "intent=switch&entitlement=ent_1&planId=annual")).toEqual({ status: 400, error: { "": [FROM_PAGE] } });
    expect(await read(SwitchForm, "entitlement=ent_1")).toMatchObject({ status: 400, error: { planId: [expect.any(String)] } });
  });
});
