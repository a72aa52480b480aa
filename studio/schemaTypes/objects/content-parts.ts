/** Small objects the content documents share (app/content-model/content-types.ts). */
import { defineField, defineType } from "@sanity/types";

/**
 * A picture: uploaded here (with its crop and the hotspot that must stay in view), or a file
 * the app serves from public/images/ (the embedded dataset's drawings). The app's schema
 * (ContentImage in app/content-model/content-types.ts) decides what is valid, on the document.
 */
/** A link's address: an offer or quiz picked from the list, or a path inside the app. */
export function pageHrefField() {
  return defineField({
    name: "href",
    title: "Page",
    type: "string",
    description: "An offer or quiz from the list, or another path inside the app, e.g. /home.",
    options: { picker: "page" } as object,
  });
}

export const contentImage = defineType({
  name: "contentImage",
  title: "Picture",
  type: "image",
  options: { hotspot: true, accept: "image/png,image/jpeg,image/webp,image/svg+xml" },
  description: "Upload a picture, then use “Edit” to crop it and to place the circle on what must stay in view.",
  fields: [
    defineField({
      name: "alt",
      title: "Description for screen readers",
      type: "string",
      description: "What the picture shows, for people who cannot see it. Required.",
    }),
    // The drawings the app ships with: shown only for them, so new pictures are uploaded.
    defineField({
      name: "src",
      title: "Or: a file the app serves",
      type: "string",
      description: "e.g. /images/routine/cleanse.svg. Ignored once a picture is uploaded.",
      hidden: ({ parent }) => !(parent as { src?: string } | undefined)?.src,
    }),
    defineField({ name: "width", title: "File width (px)", type: "number", hidden: ({ parent }) => !(parent as { src?: string } | undefined)?.src }),
    defineField({ name: "height", title: "File height (px)", type: "number", hidden: ({ parent }) => !(parent as { src?: string } | undefined)?.src }),
  ],
  preview: { select: { title: "alt", subtitle: "src", media: "asset" } },
});

export const link = defineType({
  name: "link",
  title: "Link",
  type: "object",
  fields: [defineField({ name: "label", title: "Label", type: "string" }), pageHrefField()],
  preview: { select: { title: "label", subtitle: "href" } },
});

/**
 * A video: an uploaded file, or one the app serves from /videos/; captions likewise; and its
 * still picture (poster), required: the page shows it until the video plays, at its size.
 */
export const routineVideo = defineType({
  name: "routineVideo",
  title: "Video",
  type: "object",
  fields: [
    defineField({ name: "title", title: "Title", type: "string" }),
    defineField({
      name: "file",
      title: "Video file",
      type: "file",
      options: { accept: "video/mp4,video/webm" },
      description: "Upload an MP4 or WebM, or give an address below.",
    }),
    defineField({ name: "url", title: "Or: a file the app serves", type: "string", description: "e.g. /videos/cleanse.mp4 (ask a developer to add it)." }),
    defineField({
      name: "poster",
      title: "Still picture",
      type: "contentImage",
      description: "Required: shown until it plays. Use a frame of the video, so the picture has the video's proportions.",
    }),
    defineField({ name: "duration", title: "Length", type: "string", description: "m:ss, e.g. 2:40" }),
    defineField({
      name: "captions",
      title: "Captions",
      type: "object",
      fields: [
        defineField({ name: "file", title: "Captions file (.vtt)", type: "file", options: { accept: "text/vtt,.vtt" } }),
        defineField({ name: "url", title: "Or: a file the app serves", type: "string", description: "e.g. /videos/cleanse.en.vtt" }),
        defineField({ name: "label", title: "Language name", type: "string", initialValue: "English" }),
        defineField({ name: "srclang", title: "Language code", type: "string", initialValue: "en" }),
      ],
    }),
  ],
  preview: { select: { title: "title", subtitle: "duration" } },
});

export const avoidItem = defineType({
  name: "avoidItem",
  title: "Thing to avoid",
  type: "object",
  fields: [defineField({ name: "title", title: "Title", type: "string" }), defineField({ name: "text", title: "Why", type: "text", rows: 2 })],
  preview: { select: { title: "title", subtitle: "text" } },
});

export const pageMeta = defineType({
  name: "pageMeta",
  title: "Search and sharing",
  type: "object",
  description: "The page's title and description in search results, browser tabs and shared links.",
  fields: [
    defineField({ name: "title", title: "Page title", type: "string" }),
    defineField({ name: "description", title: "Description", type: "text", rows: 3, description: "At most 300 characters." }),
  ],
  preview: { select: { title: "title", subtitle: "description" } },
});

export const titledText = defineType({
  name: "titledText",
  title: "Title and text",
  type: "object",
  fields: [defineField({ name: "title", title: "Title", type: "string" }), defineField({ name: "text", title: "Text", type: "text", rows: 2 })],
  preview: { select: { title: "title", subtitle: "text" } },
});

export const stat = defineType({
  name: "stat",
  title: "Figure",
  type: "object",
  fields: [
    defineField({ name: "value", title: "Figure", type: "string", description: "e.g. 4.7 or +40%" }),
    defineField({ name: "label", title: "What it means", type: "string" }),
  ],
  preview: { select: { title: "value", subtitle: "label" } },
});

export const contentParts = [contentImage, link, routineVideo, avoidItem, pageMeta, titledText, stat];
