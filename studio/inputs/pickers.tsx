/**
 * Inputs that let marketers pick ids instead of typing them: a schema field names its picker
 * in `options.picker` (plain data, so schema files stay loadable without the Studio), and
 * sanity.config.ts hands every input to `pickerInput`, which renders the picker or Sanity's
 * own input. The lists come from the document being edited and the documents it points at
 * (studio/choices.ts). A value that is not in the list any more stays visible, marked, so
 * nothing is lost silently; the document-level rules (the app's own checks) say what is wrong.
 */
import { Card, Checkbox, Flex, Select, Stack, Text } from "@sanity/ui";
import { useEffect, useMemo, useState, type ChangeEvent } from "react";
import { set, unset, useClient, useFormValue, type InputProps, type Path } from "sanity";
import { answerChoices, funnelChoices, offerPlanChoices, pageChoices, sharedQuestionRefs, stepChoices, type Choice } from "../choices";

export type Picker = "step" | "answerField" | "answerValues" | "offerPlan" | "offerPlans" | "funnelId" | "funnelIds" | "page";

const API_VERSION = "2025-02-19";
type Loose = Record<string, unknown>;

/** A GROQ query's result, fetched once per parameters, drafts over published (what the editor sees). */
function useQuery<T>(query: string | null, params: Record<string, unknown> = {}): T | undefined {
  const client = useClient({ apiVersion: API_VERSION });
  const [data, setData] = useState<T>();
  const key = JSON.stringify(params);
  useEffect(() => {
    if (!query) return;
    let current = true;
    client
      .withConfig({ perspective: "drafts" })
      .fetch<T>(query, JSON.parse(key))
      .then(
        (result) => current && setData(result),
        () => current && setData(undefined),
      );
    return () => {
      current = false;
    };
  }, [client, query, key]);
  return data;
}

/** The answers the quizzes behind this document ask: a quiz's own, or a plan's quizzes'. */
function useAnswerChoices() {
  const doc = (useFormValue([]) ?? {}) as Loose;
  const planFunnelIds =
    doc._type === "plan" && Array.isArray(doc.answersFrom) ? (doc.answersFrom as { _ref?: string }[]).flatMap((r) => (r._ref ? [r._ref] : [])) : [];
  const fetchedFunnels = useQuery<Loose[]>(planFunnelIds.length ? `*[_type == "funnel" && _id in $ids]{steps}` : null, { ids: planFunnelIds });
  const funnels = useMemo(() => (doc._type === "funnel" ? [doc] : (fetchedFunnels ?? [])), [doc, fetchedFunnels]);
  const refs = sharedQuestionRefs(funnels);
  const shared = useQuery<Loose[]>(refs.length ? `*[_type == "question" && _id in $ids]` : null, { ids: refs });
  return useMemo(() => answerChoices(funnels, new Map((shared ?? []).map((q) => [String(q._id), q]))), [funnels, shared]);
}

function withUnknown(choices: Choice[], value: string | undefined): Choice[] {
  return value && !choices.some((c) => c.value === value) ? [{ value, title: `${value} (not found: pick again)` }, ...choices] : choices;
}

function OneOf({ props, choices, placeholder }: { props: InputProps; choices: Choice[]; placeholder: string }) {
  const value = typeof props.value === "string" ? props.value : undefined;
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => props.onChange(event.currentTarget.value ? set(event.currentTarget.value) : unset());
  return (
    <Select value={value ?? ""} onChange={onChange} readOnly={props.readOnly} id={props.id}>
      <option value="">{placeholder}</option>
      {withUnknown(choices, value).map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.title}
        </option>
      ))}
    </Select>
  );
}

function SomeOf({ props, choices, empty }: { props: InputProps; choices: Choice[]; empty: string }) {
  const values = Array.isArray(props.value) ? (props.value as unknown[]).filter((v): v is string => typeof v === "string") : [];
  const all = values.reduce((shown, value) => withUnknown(shown, value), choices);
  const toggle = (value: string, on: boolean) => {
    // Kept in the order the list shows them.
    const next = all.map((c) => c.value).filter((v) => (v === value ? on : values.includes(v)));
    props.onChange(next.length ? set(next) : unset());
  };
  if (!all.length)
    return (
      <Text size={1} muted>
        {empty}
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

function StepPicker(props: InputProps) {
  const steps = useFormValue(["steps"]);
  return <OneOf props={props} choices={stepChoices({ steps })} placeholder="Choose a step of this quiz…" />;
}

function AnswerFieldPicker(props: InputProps) {
  const answers = useAnswerChoices();
  return <OneOf props={props} choices={answers.map((a) => ({ value: a.field, title: `${a.field} · ${a.title}` }))} placeholder="Choose an answer…" />;
}

function AnswerValuesPicker(props: InputProps) {
  const answers = useAnswerChoices();
  const field = useFormValue([...(props.path as Path).slice(0, -1), "field"]);
  const options = answers.find((a) => a.field === field)?.options ?? [];
  return <SomeOf props={props} choices={options} empty={field ? `The quiz has no options for "${String(field)}".` : "Choose the answer first."} />;
}

function OfferPlanPicker(props: InputProps & { many: boolean }) {
  const plans = useFormValue(["plans"]);
  const choices = offerPlanChoices({ plans });
  return props.many ? (
    <SomeOf props={props} choices={choices} empty="Add the offer's plans first." />
  ) : (
    <OneOf props={props} choices={choices} placeholder="Choose a plan of this offer…" />
  );
}

function FunnelPicker(props: InputProps & { many: boolean }) {
  const funnels = useQuery<Loose[]>(`*[_type == "funnel"] | order(id asc){id, title}`);
  const choices = funnelChoices(funnels ?? []);
  return props.many ? (
    <SomeOf props={props} choices={choices} empty="No quizzes yet." />
  ) : (
    <OneOf props={props} choices={choices} placeholder="Choose a quiz…" />
  );
}

/** A page of the app: pick an offer or quiz, or type any other path (e.g. /home) below. */
function PagePicker(props: InputProps) {
  const pages = useQuery<{ offers: Loose[]; funnels: Loose[] }>(
    `{"offers": *[_type == "offer"]{path, pageTitle}, "funnels": *[_type == "funnel"]{route, title}}`,
  );
  const choices = pageChoices(pages?.offers ?? [], pages?.funnels ?? []);
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
