/**
 * The funnel format: one declarative JSON document per quiz (funnels/*.json, or a
 * Sanity document of type "funnel"). Plain objects and arrays only, so the same
 * shape can be stored in the CMS. Short copy (labels, buttons) lives here; long
 * copy (result insights) lives in content documents referenced by id.
 *
 * No React, no I/O: this module is shared by the app, the linter and the tests.
 */
import { z } from "zod";
import { sameOriginPath } from "./same-origin-path";
import { reservedPathProblem } from "./reserved-paths";

/** Option values and step ids end up in URLs, cookies and analytics: keep them boring. */
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "use lower-case letters, digits and single dashes");

// `intent` is the name of a step's buttons (continue, skip): an answer field of that name would clash with them.
const fieldName = z
  .string()
  .regex(/^[a-z][A-Za-z0-9]*$/, "use a camelCase answer field name, e.g. skinType")
  .refine((name) => name !== "intent", '"intent" is the name of the step\'s buttons: choose another answer field name');

const text = z.string().trim().min(1, "must not be empty");

/**
 * An in-app path ("/subscribe-otp"). Never a full URL: funnels only link inside the app, and
 * the path must be one a browser keeps on this site after normalising it ("/.//x" is not).
 */
const appPath = z
  .string()
  .regex(/^\/(?!\/)[A-Za-z0-9\-._~/?=&%]*$/, "must be a path inside the app, starting with a single /")
  .refine((path) => sameOriginPath(path) !== null, "must be a path inside the app, starting with a single /");

/** A reference to another document in the content dataset (Sanity reference shape). */
export const DocumentRef = z.strictObject({
  _type: z.literal("reference").optional(),
  _ref: text,
});
export type DocumentRef = z.infer<typeof DocumentRef>;

export const Option = z.strictObject({
  value: slug,
  label: text,
  /** Smaller text under the label. */
  description: text.optional(),
  /** A small highlight on the option, e.g. "Best match". */
  badge: text.optional(),
  /** Shorter wording used where the answer is summarised ("10 min/day"). */
  summary: text.optional(),
  /** Choosing this option clears every other choice (e.g. "None of these"). Multi-choice only. */
  exclusive: z.boolean().optional(),
});
export type Option = z.infer<typeof Option>;

export const Question = z
  .strictObject({
    /** The answer field this question fills, e.g. skinType. */
    field: fieldName,
    /** Heading above the options when a step asks several questions at once. */
    label: text.optional(),
    select: z.enum(["one", "many"]),
    options: z.array(Option).min(2, "needs at least two options"),
    /** For select "many": how many must be chosen before Continue (default 1). */
    minSelected: z.number().int().min(1).optional(),
  })
  .superRefine((q, ctx) => {
    const seen = new Set<string>();
    q.options.forEach((option, i) => {
      if (seen.has(option.value)) {
        ctx.addIssue({ code: "custom", path: ["options", i, "value"], message: `duplicate option value "${option.value}"` });
      }
      seen.add(option.value);
      if (option.exclusive && q.select === "one") {
        ctx.addIssue({ code: "custom", path: ["options", i, "exclusive"], message: "only multi-choice options can be exclusive" });
      }
    });
    if (q.minSelected !== undefined && q.select === "one") {
      ctx.addIssue({ code: "custom", path: ["minSelected"], message: "only applies to multi-choice questions" });
    }
  });
export type Question = z.infer<typeof Question>;

/**
 * A condition on the answers. `anyOf`: the answer (or, for a multi-choice field, one
 * of the chosen values) is one of these. `answered`: the field has (or has not) been
 * answered. Several conditions in a list must all hold.
 */
export const Condition = z
  .strictObject({
    field: fieldName,
    anyOf: z.array(slug).min(1).optional(),
    answered: z.boolean().optional(),
  })
  .refine((c) => (c.anyOf === undefined) !== (c.answered === undefined), {
    message: "give exactly one of anyOf or answered",
  });
export type Condition = z.infer<typeof Condition>;

/** Where a step leads: another step of this funnel, or a page of the app. */
export const Target = z.union([z.strictObject({ step: slug }), z.strictObject({ href: appPath })]);
export type Target = z.infer<typeof Target>;

/** Ordered branches; the first whose conditions all hold wins. The last must have no conditions. */
export const Next = z
  .array(z.strictObject({ when: z.array(Condition).optional(), to: Target }))
  .min(1)
  .refine((branches) => !branches.at(-1)!.when?.length, {
    message: "the last branch must have no conditions, so there is always a way on",
  });
export type Next = z.infer<typeof Next>;

/** Ordered rules picking a content document; first match wins, `otherwise` is required. */
export const InsightRules = z.strictObject({
  rules: z.array(z.strictObject({ when: z.array(Condition).min(1), insight: DocumentRef })),
  otherwise: DocumentRef,
});
export type InsightRules = z.infer<typeof InsightRules>;

const stepBase = {
  id: slug,
  /**
   * The small label above the step ("Final Question", "2 of 5"). Omitted on a question, the
   * engine shows "Step 3 of 12" from the funnel's graph (stepChrome, ADR 34).
   */
  label: text.optional(),
  /** Progress bar value in percent. Omitted: a question's is computed; other steps show no bar. */
  progress: z.number().min(0).max(100).optional(),
  /** Show a back link to the previous step (default true). */
  back: z.boolean().optional(),
};

export const IntroStep = z.strictObject({
  ...stepBase,
  type: z.literal("intro"),
  eyebrow: text.optional(),
  headline: text,
  subheadline: text.optional(),
  badges: z.array(text).optional(),
  /** Feature cards under the headline (the prototype app's landing). */
  features: z.array(z.strictObject({ title: text, text: text })).optional(),
  buttonLabel: text,
  /** Starting here wipes earlier answers (a fresh quiz). */
  resetAnswers: z.boolean(),
  next: Next,
});

export const QuestionStep = z.strictObject({
  ...stepBase,
  type: z.literal("question"),
  title: text,
  subtitle: text.optional(),
  /** Usually one question; several when the step needs them all (skin tone + undertone). */
  questions: z.array(Question).min(1),
  /** "list": stacked rows with radio/checkbox; "cards": larger tappable cards; "grid": two columns. */
  layout: z.enum(["list", "cards", "grid"]).default("list"),
  /** Button text. "{choice}" is replaced by the chosen option's label. */
  continueLabel: text,
  /** Single-question, single-choice steps can move on by themselves this long after a tap. */
  autoAdvanceMs: z.number().int().min(0).max(5000).optional(),
  /** "disabled": Continue shows but is disabled until answered; "hidden": it appears once answered. */
  continueWhenUnanswered: z.enum(["disabled", "hidden"]).default("disabled"),
  /** Offers a link that saves an empty answer (multi-choice only) and moves on. */
  skipLabel: text.optional(),
  /** Small print under the button. */
  note: text.optional(),
  next: Next,
});

export const AnalysingStep = z.strictObject({
  ...stepBase,
  type: z.literal("analysing"),
  title: text,
  /** Lines shown one after another while "analysing". */
  messages: z.array(text).min(1),
  durationMs: z.number().int().min(0).max(15000),
  next: Next,
});

/** A mid-funnel screen showing an insight picked from the answers so far. */
export const InsightStep = z.strictObject({
  ...stepBase,
  type: z.literal("insight"),
  title: text,
  pick: InsightRules,
  continueLabel: text,
  next: Next,
});

/** Cards summarising answers (optionally of another funnel), e.g. "Here's what we learned about you". */
export const SummaryStep = z.strictObject({
  ...stepBase,
  type: z.literal("summary"),
  title: text,
  subtitle: text.optional(),
  /** Read answers from this funnel instead of this one. */
  answersFrom: slug.optional(),
  cards: z
    .array(
      z.strictObject({
        field: fieldName,
        title: text,
        /** For multi-choice fields: show at most this many choices. */
        limit: z.number().int().min(1).optional(),
      }),
    )
    .min(1),
  /** At most this many cards are shown (those with an answer, in order). */
  maxCards: z.number().int().min(1).optional(),
  continueLabel: text,
  next: Next,
});

/** The end of a funnel: records completion, picks the insight, offers the next page. */
export const ResultStep = z.strictObject({
  ...stepBase,
  type: z.literal("result"),
  eyebrow: text.optional(),
  title: text,
  pick: InsightRules,
  cta: z.strictObject({ label: text, href: appPath }),
});

/**
 * "Where should we send your plan?": asks for an e-mail address before the result, and,
 * separately, for consent to marketing e-mails (unticked; the address alone is never consent).
 * Never blocks the result: the visitor may skip it. A visitor who gives an address and consents
 * and does not buy gets the recovery e-mails, `recoveryAfterHours` after giving it
 * (docs/decisions/0044-email-step-and-recovery.md).
 */
export const EmailStep = z.strictObject({
  ...stepBase,
  type: z.literal("email"),
  title: text,
  subtitle: text.optional(),
  /** The address field's label. */
  emailLabel: text,
  /** The consent checkbox's words: what the visitor agrees to receive. */
  consentLabel: text,
  continueLabel: text,
  /** The link-like button that goes on to the result without an address. */
  skipLabel: text,
  /** Small print under the button (what happens to the address). */
  note: text.optional(),
  /** Hours after the address is given at which each recovery e-mail goes (in order; at most 5). */
  recoveryAfterHours: z
    .array(
      z
        .number()
        .min(0.25)
        .max(24 * 30),
    )
    .max(5)
    .default([]),
  /** Hours after a checkout started and not finished at which its one reminder goes; omitted: none. */
  checkoutReminderAfterHours: z
    .number()
    .min(0.25)
    .max(24 * 7)
    .optional(),
  next: Next,
});

export const Step = z.discriminatedUnion("type", [IntroStep, QuestionStep, AnalysingStep, InsightStep, SummaryStep, EmailStep, ResultStep]);
export type Step = z.infer<typeof Step>;
export type StepOfType<T extends Step["type"]> = Extract<Step, { type: T }>;

/**
 * A question may be written in place or reference a shared question document
 * (`{ "_ref": "question.longevity-goal" }`) so two funnels ask it from one definition.
 */
const QuestionOrRef = z.union([Question, DocumentRef]);

/** The funnel as stored: question steps may reference shared questions. */
export const FunnelDocument = z
  .strictObject({
    $schema: z.string().optional(),
    _id: z.string().optional(),
    _type: z.literal("funnel").optional(),
    _rev: z.string().optional(),
    _createdAt: z.string().optional(),
    _updatedAt: z.string().optional(),
    /** Stable id, also the analytics name, e.g. "skin". */
    id: slug,
    /** Internal title for editors. */
    title: text,
    /** The URL the funnel lives under: /quiz, /quiz/1, ... */
    route: z
      .string()
      .regex(/^\/[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be one path segment such as /quiz")
      .superRefine((route, ctx) => {
        const problem = reservedPathProblem(route);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    /** Page title shown in the browser tab. */
    pageTitle: text,
    steps: z.array(
      z.discriminatedUnion("type", [
        QuestionStep.extend({ questions: z.array(QuestionOrRef).min(1) }),
        IntroStep,
        AnalysingStep,
        InsightStep,
        SummaryStep,
        EmailStep,
        ResultStep,
      ]),
    ),
  })
  .superRefine((funnel, ctx) => checkStepIds(funnel.steps, ctx));
export type FunnelDocument = z.infer<typeof FunnelDocument>;

/** The funnel the engine runs: every question resolved. */
export const Funnel = z
  .strictObject({
    id: slug,
    title: text,
    route: FunnelDocument.shape.route,
    pageTitle: text,
    steps: z.array(Step).min(1),
  })
  .superRefine((funnel, ctx) => {
    checkStepIds(funnel.steps, ctx);
    checkQuestionFields(funnel.steps, ctx);
    checkTargetsAndRules(funnel.steps, ctx);
    checkEmailSteps(funnel.steps, ctx);
  });
export type Funnel = z.infer<typeof Funnel>;

function checkStepIds(steps: { id: string }[], ctx: z.core.$RefinementCtx) {
  const seen = new Set<string>();
  steps.forEach((step, i) => {
    if (seen.has(step.id)) ctx.addIssue({ code: "custom", path: ["steps", i, "id"], message: `duplicate step id "${step.id}"` });
    seen.add(step.id);
  });
}

/** One question per answer field across the funnel, so an answer always means one thing. */
function checkQuestionFields(steps: Step[], ctx: z.core.$RefinementCtx) {
  const seen = new Map<string, string>();
  steps.forEach((step, i) => {
    if (step.type !== "question") return;
    step.questions.forEach((q, j) => {
      const where = seen.get(q.field);
      if (where) {
        ctx.addIssue({
          code: "custom",
          path: ["steps", i, "questions", j, "field"],
          message: `field "${q.field}" is already asked on step "${where}"`,
        });
      }
      seen.set(q.field, step.id);
    });
    if (step.autoAdvanceMs !== undefined && (step.questions.length !== 1 || step.questions[0].select !== "one")) {
      ctx.addIssue({
        code: "custom",
        path: ["steps", i, "autoAdvanceMs"],
        message: "auto-advance needs exactly one single-choice question",
      });
    }
    if (step.skipLabel && !step.questions.every((q) => q.select === "many")) {
      ctx.addIssue({ code: "custom", path: ["steps", i, "skipLabel"], message: "only multi-choice steps can be skipped" });
    }
  });
}

/**
 * Step targets and rule conditions must point at things that exist: a target step id,
 * an asked field, an option of that field. Checked here (not only in the linter) so a
 * broken CMS document is rejected before it can break a page.
 */
function checkTargetsAndRules(steps: Step[], ctx: z.core.$RefinementCtx) {
  const ids = new Set(steps.map((s) => s.id));
  const options = new Map<string, Set<string>>();
  for (const step of steps) {
    if (step.type === "question") for (const q of step.questions) options.set(q.field, new Set(q.options.map((o) => o.value)));
  }
  const checkConditions = (conditions: Condition[] | undefined, path: (string | number)[]) => {
    conditions?.forEach((c, k) => {
      const known = options.get(c.field);
      if (!known) {
        ctx.addIssue({ code: "custom", path: [...path, k, "field"], message: `no question asks "${c.field}"` });
        return;
      }
      c.anyOf?.forEach((value, m) => {
        if (!known.has(value)) {
          ctx.addIssue({ code: "custom", path: [...path, k, "anyOf", m], message: `"${c.field}" has no option "${value}"` });
        }
      });
    });
  };
  steps.forEach((step, i) => {
    if ("next" in step) {
      step.next.forEach((branch, j) => {
        checkConditions(branch.when, ["steps", i, "next", j, "when"]);
        if ("step" in branch.to && !ids.has(branch.to.step)) {
          ctx.addIssue({ code: "custom", path: ["steps", i, "next", j, "to", "step"], message: `no step "${branch.to.step}"` });
        }
      });
    }
    if (step.type === "insight" || step.type === "result") {
      step.pick.rules.forEach((rule, j) => checkConditions(rule.when, ["steps", i, "pick", "rules", j, "when"]));
    }
    if (step.type === "summary" && !step.answersFrom) {
      step.cards.forEach((card, j) => {
        if (!options.has(card.field)) {
          ctx.addIssue({ code: "custom", path: ["steps", i, "cards", j, "field"], message: `no question asks "${card.field}"` });
        }
      });
    }
  });
}

/**
 * At most one e-mail step (a visitor is asked once), and only in a funnel with a result: the
 * address is asked for the plan the result shows. Whether it leads there is the linter's (graph).
 */
function checkEmailSteps(steps: Step[], ctx: z.core.$RefinementCtx) {
  const emails = steps.flatMap((step, i) => (step.type === "email" ? [i] : []));
  emails
    .slice(1)
    .forEach((i) => ctx.addIssue({ code: "custom", path: ["steps", i, "type"], message: "a funnel asks for the e-mail address once: only one e-mail step" }));
  if (emails.length > 0 && !steps.some((step) => step.type === "result")) {
    ctx.addIssue({ code: "custom", path: ["steps", emails[0], "type"], message: "an e-mail step comes before a result: this funnel has no result step" });
  }
  for (const i of emails) {
    const step = steps[i] as StepOfType<"email">;
    const hours = step.recoveryAfterHours;
    if (hours.some((h, k) => k > 0 && h <= hours[k - 1])) {
      ctx.addIssue({ code: "custom", path: ["steps", i, "recoveryAfterHours"], message: "list the recovery e-mails' hours in increasing order" });
    }
  }
}

/** Readable one-line-per-problem text for a zod error, naming the path of each problem. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`);
}
