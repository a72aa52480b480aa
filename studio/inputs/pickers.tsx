/**
 * Inputs that let marketers pick ids instead of typing them: a schema field names its picker
 * in `options.picker` (plain data, so schema files stay loadable without the Studio), and
 * sanity.config.ts hands every input to `pickerInput`, which renders the picker or Sanity's
 * own input. The lists come from the document being edited and the documents it points at
 * (studio/choices.ts: an experiment's come from the quiz or offer it changes, fetched with
 * the Studio's client). A value that is not in the list any more stays visible, marked, so
 * nothing is lost silently; the document-level rules (the app's own checks) say what is wrong.
 */
import { Card, Checkbox, Flex, Select, Stack, Text } from "@sanity/ui";
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { set, unset, useClient, useFormValue, type InputProps, type Path } from "sanity";
import { pickerChoices, type Choice, type Fetch, type Picker } from "../choices";

export type { Picker };

const API_VERSION = "2025-02-19";

const sameChoices = (a: Choice[] | undefined, b: Choice[]) =>
  !!a && a.length === b.length && a.every((choice, i) => choice.value === b[i].value && choice.title === b[i].title);

/**
 * What the field's picker offers (undefined while loading): worked out again as the document
 * changes, each query fetched once per parameters while the input is shown, drafts over
 * published (what the editor sees).
 */
function useChoices(picker: Picker, path: Path): Choice[] | undefined {
  const doc = useFormValue([]);
  const client = useClient({ apiVersion: API_VERSION });
  const fetched = useRef(new Map<string, Promise<unknown>>());
  const [choices, setChoices] = useState<Choice[]>();
  const pathKey = JSON.stringify(path);
  useEffect(() => {
    let current = true;
    const drafts = client.withConfig({ perspective: "drafts" });
    const fetch: Fetch = (query, params = {}) => {
      const key = `${query}\n${JSON.stringify(params)}`;
      let result = fetched.current.get(key);
      if (!result) {
        result = drafts.fetch(query, params);
        fetched.current.set(key, result);
        // A failed query is asked again next time.
        result.catch(() => fetched.current.delete(key));
      }
      return result;
    };
    pickerChoices(picker, doc, JSON.parse(pathKey), fetch).then(
      (found) => current && setChoices((shown) => (sameChoices(shown, found) ? shown : found)),
      () => current && setChoices([]),
    );
    return () => {
      current = false;
    };
  }, [client, picker, doc, pathKey]);
  return choices;
}

/** The list with a value it lacks shown first, marked (not while the list is still loading). */
function withUnknown(choices: Choice[] | undefined, value: string | undefined): Choice[] {
  if (!choices) return value ? [{ value, title: value }] : [];
  return value && !choices.some((c) => c.value === value) ? [{ value, title: `${value} (not found: pick again)` }, ...choices] : choices;
}

function OneOf({ props, choices, placeholder }: { props: InputProps; choices: Choice[] | undefined; placeholder: string }) {
  const value = typeof props.value === "string" ? props.value : undefined;
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => props.onChange(event.currentTarget.value ? set(event.currentTarget.value) : unset());
  return (
    <Select value={value ?? ""} onChange={onChange} readOnly={props.readOnly} id={props.id}>
      <option value="">{choices ? placeholder : "Loading…"}</option>
      {withUnknown(choices, value).map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.title}
        </option>
      ))}
    </Select>
  );
}

function SomeOf({ props, choices, empty }: { props: InputProps; choices: Choice[] | undefined; empty: string }) {
  const values = Array.isArray(props.value) ? (props.value as unknown[]).filter((v): v is string => typeof v === "string") : [];
  // While the list loads, the ticked values are shown as they are.
  const all = choices ? values.reduce((shown, value) => withUnknown(shown, value), choices) : values.map((value) => ({ value, title: value }));
  const toggle = (value: string, on: boolean) => {
    // Kept in the order the list shows them.
    const next = all.map((c) => c.value).filter((v) => (v === value ? on : values.includes(v)));
    props.onChange(next.length ? set(next) : unset());
  };
  if (!all.length)
    return (
      <Text size={1} muted>
        {choices ? empty : "Loading…"}
      </Text>
    );
  return (
    <Card padding={2} radius={2} border>
      <Stack space={3}>
        {all.map((choice) => (
          <Flex key={choice.value} align="center" gap={2} as="label">
            <Checkbox checked={values.includes(choice.value)} readOnly={props.readOnly} onChange={(e) => toggle(choice.value, e.currentTarget.checked)} />
            <Text size={1}>{choice.title}</Text>
          </Flex>
        ))}
      </Stack>
    </Card>
  );
}

/** In an experiment, lists name the quiz or offer it changes; elsewhere the document's own. */
function useInExperiment(): boolean {
  return useFormValue(["_type"]) === "experiment";
}

function StepPicker(props: InputProps) {
  const choices = useChoices("step", props.path);
  const inExperiment = useInExperiment();
  return <OneOf props={props} choices={choices} placeholder={inExperiment ? "Choose a step of the quiz above…" : "Choose a step of this quiz…"} />;
}

function AnswerFieldPicker(props: InputProps) {
  return <OneOf props={props} choices={useChoices("answerField", props.path)} placeholder="Choose an answer…" />;
}

function AnswerValuesPicker(props: InputProps) {
  const choices = useChoices("answerValues", props.path);
  const field = useFormValue([...(props.path as Path).slice(0, -1), "field"]);
  return <SomeOf props={props} choices={choices} empty={field ? `The quiz has no options for "${String(field)}".` : "Choose the answer first."} />;
}

function OfferPlanPicker(props: InputProps & { many: boolean }) {
  const choices = useChoices(props.many ? "offerPlans" : "offerPlan", props.path);
  const inExperiment = useInExperiment();
  return props.many ? (
    <SomeOf props={props} choices={choices} empty={inExperiment ? "Choose the offer above first." : "Add the offer's plans first."} />
  ) : (
    <OneOf props={props} choices={choices} placeholder={inExperiment ? "Choose a plan of the offer above…" : "Choose a plan of this offer…"} />
  );
}

function FunnelPicker(props: InputProps & { many: boolean }) {
  const choices = useChoices(props.many ? "funnelIds" : "funnelId", props.path);
  return props.many ? (
    <SomeOf props={props} choices={choices} empty="No quizzes yet." />
  ) : (
    <OneOf props={props} choices={choices} placeholder="Choose a quiz…" />
  );
}

/** A page of the app: pick an offer or quiz, or type any other path (e.g. /home) below. */
function PagePicker(props: InputProps) {
  const choices = useChoices("page", props.path) ?? [];
  const value = typeof props.value === "string" ? props.value : "";
  return (
    <Stack space={2}>
      <Select
        value={choices.some((c) => c.value === value) ? value : ""}
        onChange={(e) => e.currentTarget.value && props.onChange(set(e.currentTarget.value))}
        readOnly={props.readOnly}
      >
        <option value="">Pick an offer or quiz…</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.title}
          </option>
        ))}
      </Select>
      {props.renderDefault(props)}
    </Stack>
  );
}

/** The Studio's input for every field: a picker when the field asks for one, else Sanity's own. */
export function pickerInput(props: InputProps) {
  const picker = (props.schemaType.options as { picker?: Picker } | undefined)?.picker;
  switch (picker) {
    case "step":
      return <StepPicker {...props} />;
    case "answerField":
      return <AnswerFieldPicker {...props} />;
    case "answerValues":
      return <AnswerValuesPicker {...props} />;
    case "offerPlan":
    case "offerPlans":
      return <OfferPlanPicker {...props} many={picker === "offerPlans"} />;
    case "funnelId":
    case "funnelIds":
      return <FunnelPicker {...props} many={picker === "funnelIds"} />;
    case "page":
      return <PagePicker {...props} />;
    default:
      return props.renderDefault(props);
  }
}
