/** The daily reminder form (/profile, and /home's one-tap offer), read as a browser posts it. */
import { describe, expect, it } from "vitest";
import { ReminderForm } from "~/reminders/forms.server";
import { parseForm } from "~/utils/form.server";

async function read(body: string) {
  const request = new Request("http://localhost/profile", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  const { submission, status } = await parseForm(request, ReminderForm);
  if (submission.status === "success") return { value: submission.value };
  return { status, error: submission.reply().error };
}

describe("the reminder form", () => {
  it("reads a ticked box as on, an unticked one (nothing sent) or 'off' as off, and the hour", async () => {
    expect(await read("intent=reminder&reminder=on&hour=7")).toEqual({ value: { intent: "reminder", reminder: true, hour: 7 } });
    expect(await read("intent=reminder&hour=8")).toEqual({ value: { intent: "reminder", reminder: false, hour: 8 } });
    expect(await read("intent=reminder&reminder=off&hour=0")).toEqual({ value: { intent: "reminder", reminder: false, hour: 0 } });
    expect(await read("intent=reminder&reminder=on&hour=23&from=home")).toEqual({ value: { intent: "reminder", reminder: true, hour: 23, from: "home" } });
  });

  it.each(["", "24", "-1", "7.5", "07:00", "0x10", " 7", "1e1", "seven"])("refuses the hour %j beside the hour field", async (hour) => {
    expect(await read(`intent=reminder&reminder=on&hour=${encodeURIComponent(hour)}`)).toEqual({
      status: 400,
      error: { hour: ["Please choose an hour for your reminder from the list."] },
    });
  });

  it("refuses a checkbox value other than on/off beside the checkbox, and a missing hour beside the list", async () => {
    expect(await read("intent=reminder&reminder=yes")).toEqual({
      status: 400,
      error: { reminder: ["Please turn the reminder on or off with the checkbox."], hour: ["Please choose an hour for your reminder from the list."] },
    });
  });

  it("refuses a form that was not sent by the page's button", async () => {
    expect(await read("reminder=on&hour=7")).toEqual({ status: 400, error: { "": ["Please use the buttons on the page."] } });
    expect(await read("intent=delete&reminder=on&hour=7")).toEqual({ status: 400, error: { "": ["Please use the buttons on the page."] } });
  });
});
