import { Form } from "@remix-run/react";
import type { FormEvent } from "react";
import { useEffect, useId, useRef, useState } from "react";
import { CheckIcon } from "~/components/ui/icons";
import { useHydrated } from "~/hooks/use-hydrated";
import { answerStep } from "../answer-queue";
import { canContinue, continueLabel, toggleChoice } from "../engine";
import type { Option, Question } from "../../content-model/funnel";
import type { ViewOf } from "../view";
import { FormError, StepChrome, useStepFocus } from "./step-chrome";

type Answers = Record<string, string | string[]>;

/**
 * A question step is a plain HTML form: radios, checkboxes or (for steps that move on
 * by themselves) one submit button per option. JavaScript adds the disabled state,
 * the auto-advance delay and exclusive choices; without it the same form posts as is. With it,
 * an answer shows the next step at once and reaches the server behind it (answer-queue.ts).
 * A choice and the Continue button change colour at once, with no transition: a colour
 * transition is drawn frame by frame on the page's main thread, and the next tap waited behind
 * it (ADR 43).
 */
export function QuestionStep({ view }: { view: ViewOf<"question"> }) {
  const { step } = view;
  const hydrated = useHydrated();
  const heading = useStepFocus<HTMLHeadingElement>();
  const headingId = useId();
  const [answers, setAnswers] = useState<Answers>(view.answers);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  // Busy while this step's answer waits for the server's page. Not while the router moves to a
  // step already on screen (ADR 43): that would lock the next question for a frame or more after
  // it is shown, and a hydrated step's form never goes through the router.
  const [sending, setSending] = useState(false);
  const autoAdvance = step.autoAdvanceMs !== undefined;

  /** Hands the answer to the queue (the page moves on at once, or when the server's page is in). */
  function send(fields: [string, string][], given: Answers) {
    setSending(true);
    void answerStep(view, fields, given).finally(() => setSending(false));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>, skip: boolean) {
    if (!hydrated) return;
    event.preventDefault();
    if (skip) send([["intent", "skip"]], Object.fromEntries(step.questions.map((question) => [question.field, []])));
    else if (ready) send([...new FormData(event.currentTarget)].map(([name, value]) => [name, String(value)]), answers);
  }
  const ready = canContinue(step, answers);

  function choose(question: Question, value: string) {
    const current = answers[question.field];
    const next = question.select === "one" ? value : toggleChoice(question, Array.isArray(current) ? current : [], value);
    setAnswers({ ...answers, [question.field]: next });
  }

  function autoAdvanceTo(question: Question, value: string) {
    choose(question, value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => send([[question.field, value]], { [question.field]: value }), step.autoAdvanceMs);
  }

  return (
    <StepChrome backHref={view.backHref} label={step.label} progress={step.progress} fadeIn={false}>
      <h1 id={headingId} ref={heading} tabIndex={-1} className="text-3xl font-semibold leading-tight outline-none sm:text-4xl">
        {step.title}
      </h1>
      {step.subtitle ? <p className="mt-2 text-base text-muted">{step.subtitle}</p> : null}

      <Form method="post" data-continue={step.continueWhenUnanswered} className="mt-7" noValidate onSubmit={(event) => onSubmit(event, false)}>
        {step.questions.map((question) => (
          <fieldset key={question.field} className="mt-6 first:mt-0" data-required="" {...(question.label ? {} : { "aria-labelledby": headingId })}>
            {question.label ? <legend className="mb-3 text-lg font-semibold">{question.label}</legend> : null}
            <div className={step.layout === "grid" ? "grid grid-cols-2 gap-3" : "grid gap-3"}>
              {question.options.map((option) =>
                autoAdvance ? (
                  <AdvanceButton
                    key={option.value}
                    question={question}
                    option={option}
                    selected={answers[question.field] === option.value}
                    disabled={sending}
                    onChoose={
                      hydrated
                        ? (event) => {
                            event.preventDefault();
                            autoAdvanceTo(question, option.value);
                          }
                        : undefined
                    }
                  />
                ) : (
                  <ChoiceInput
                    key={option.value}
                    large={step.layout === "cards"}
                    question={question}
                    option={option}
                    checked={isChosen(answers, question.field, option.value)}
                    onChange={() => choose(question, option.value)}
                  />
                ),
              )}
            </div>
          </fieldset>
        ))}

        <FormError />

        {autoAdvance ? null : (
          <div className="mt-8 flex flex-col items-center gap-3">
            <button type="submit" className="btn-primary continue-button w-full transition-none" disabled={hydrated && (!ready || sending)}>
              {continueLabel(step, answers)}
            </button>
            {step.note ? <p className="text-center text-sm text-muted">{step.note}</p> : null}
          </div>
        )}
      </Form>

      {step.skipLabel ? (
        <Form method="post" className="mt-3 text-center" onSubmit={(event) => onSubmit(event, true)}>
          <input type="hidden" name="intent" value="skip" />
          <button type="submit" className="rounded-full px-4 py-2 text-sm font-semibold text-muted underline underline-offset-4 hover:text-ink" disabled={sending}>
            {step.skipLabel}
          </button>
        </Form>
      ) : null}
    </StepChrome>
  );
}

function isChosen(answers: Answers, field: string, value: string): boolean {
  const chosen = answers[field];
  return Array.isArray(chosen) ? chosen.includes(value) : chosen === value;
}

function ChoiceInput({
  question,
  option,
  checked,
  onChange,
  large,
}: {
  question: Question;
  option: Option;
  checked: boolean;
  onChange: () => void;
  large: boolean;
}) {
  const multiple = question.select === "many";
  const id = useId();
  return (
    <label
      className={`group relative flex cursor-pointer items-center gap-4 rounded-2xl border border-line bg-white px-4 shadow-soft ${large ? "py-5" : "py-3.5"} hover:border-rose-200 has-[:checked]:border-rose-500 has-[:checked]:bg-rose-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-[3px] has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-rose-500`}
    >
      <input
        type={multiple ? "checkbox" : "radio"}
        name={question.field}
        value={option.value}
        checked={checked}
        onChange={onChange}
        aria-labelledby={`${id}-label`}
        aria-describedby={option.description ? `${id}-description` : undefined}
        className="peer sr-only"
      />
      <span
        aria-hidden="true"
        className={`flex h-6 w-6 shrink-0 items-center justify-center border-2 border-line bg-white text-white peer-checked:border-rose-600 peer-checked:bg-rose-600 ${multiple ? "rounded-md" : "rounded-full"}`}
      >
        <CheckIcon className="h-3.5 w-3.5" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span id={`${id}-label`} className={`font-medium text-ink ${large ? "text-lg" : "text-base"}`}>
          {option.label}
        </span>
        {option.description ? (
          <span id={`${id}-description`} className="text-sm text-muted">
            {option.description}
          </span>
        ) : null}
      </span>
      {option.badge ? <span className="rounded-full bg-rose-600 px-2.5 py-0.5 text-xs font-semibold text-white">{option.badge}</span> : null}
    </label>
  );
}

function AdvanceButton({
  question,
  option,
  selected,
  disabled,
  onChoose,
}: {
  question: Question;
  option: Option;
  selected: boolean;
  disabled: boolean;
  onChoose?: (event: React.MouseEvent<HTMLButtonElement>) => void;
}) {
  // Named by everything it shows (label, description, badge), so the name matches what people see.
  return (
    <button
      type="submit"
      name={question.field}
      value={option.value}
      aria-pressed={selected}
      disabled={disabled && !selected}
      onClick={onChoose}
      className="flex w-full items-center gap-4 rounded-2xl border border-line bg-white px-4 py-4 text-left shadow-soft hover:border-rose-200 aria-pressed:border-rose-500 aria-pressed:bg-rose-50"
    >
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-lg font-medium text-ink">{option.label}</span>
        {option.description ? <span className="text-sm text-muted">{option.description}</span> : null}
      </span>
      {option.badge ? <span className="rounded-full bg-rose-600 px-2.5 py-0.5 text-xs font-semibold text-white">{option.badge}</span> : null}
      <span
        aria-hidden="true"
        className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border-2 ${selected ? "border-rose-600 bg-rose-600 text-white" : "border-line text-transparent"}`}
      >
        <CheckIcon className="h-3.5 w-3.5" />
      </span>
    </button>
  );
}
