/**
 * The Studio's left-hand menu, in the words marketers use: Funnels, Offers, Experiments, Routine plans (and
 * their products), Tutorials, Pages (landing, partnerships, members' home, legal pages), Settings.
 * Singletons open straight into their one document. Documents that are (or change) a page
 * have a "Preview" tab beside the form: the page itself, with the unpublished changes.
 */
import { CogIcon, DocumentsIcon, EyeOpenIcon, PlayIcon, ProjectsIcon, TagIcon, ListIcon, SplitHorizontalIcon } from "@sanity/icons";
import type { DefaultDocumentNodeResolver, StructureBuilder, StructureResolver } from "sanity/structure";
import { PreviewPane } from "./preview/preview-pane";

/** Types the app shows as a page of their own (studio/preview/page-path.ts says where). */
const PAGE_TYPES = new Set(["funnel", "offer", "plan", "tutorialSettings", "homePage", "partnershipsPage", "legalPage", "landingPage", "siteSettings"]);

function views(S: StructureBuilder, type: string) {
  return PAGE_TYPES.has(type) ? [S.view.form(), S.view.component(PreviewPane).title("Preview").icon(EyeOpenIcon)] : [S.view.form()];
}

export const defaultDocumentNode: DefaultDocumentNodeResolver = (S, { schemaType }) => S.document().views(views(S, schemaType));

function singleton(S: StructureBuilder, type: string, id: string, title: string) {
  return S.listItem()
    .title(title)
    .id(id)
    .child(S.document().schemaType(type).documentId(id).title(title).views(views(S, type)));
}

export const structure: StructureResolver = (S) =>
  S.list()
    .title("Content")
    .items([
      S.listItem()
        .title("Funnels")
        .icon(ListIcon)
        .child(
          S.list()
            .title("Funnels")
            .items([
              S.documentTypeListItem("funnel").title("Quizzes"),
              S.documentTypeListItem("insight").title("Result insights"),
              S.documentTypeListItem("question").title("Shared questions"),
            ]),
        ),
      S.documentTypeListItem("offer").title("Offers").icon(TagIcon),
      S.documentTypeListItem("experiment").title("Experiments").icon(SplitHorizontalIcon),
      S.listItem()
        .title("Routine plans")
        .icon(ProjectsIcon)
        .child(
          S.list()
            .title("Routine plans")
            .items([S.documentTypeListItem("plan").title("Plans"), S.documentTypeListItem("product").title("Products")]),
        ),
      S.listItem()
        .title("Tutorials")
        .icon(PlayIcon)
        .child(
          S.list()
            .title("Tutorials")
            .items([
              S.documentTypeListItem("tutorialStep").title("Tutorial pages"),
              singleton(S, "tutorialSettings", "tutorialSettings", "Tutorial footer and completion page"),
            ]),
        ),
      S.listItem()
        .title("Pages")
        .icon(DocumentsIcon)
        .child(
          S.list()
            .title("Pages")
            .items([
              singleton(S, "landingPage", "page-landing", "Landing page"),
              singleton(S, "partnershipsPage", "page-partnerships", "Partnerships page (for brands)"),
              singleton(S, "homePage", "page-home", "Members' home"),
              S.documentTypeListItem("legalPage").title("Legal pages (privacy, terms)"),
            ]),
        ),
      S.divider(),
      singleton(S, "siteSettings", "siteSettings", "Settings").icon(CogIcon),
    ]);
