/**
 * A video in content: an uploaded file or a file the app serves, always with its still
 * picture (the poster, a ContentImage: its width and height keep the video's place). The
 * Studio runs the same schema, so what is refused here is refused before publish.
 */
import { describe, expect, it } from "vitest";
import { RoutineVideo } from "~/content-model/content-types";
import { videoView } from "~/members/personalise";

const poster = { _type: "contentImage", asset: { _type: "reference", _ref: "image-a1b2c3-1280x720-jpg" }, alt: "Hands massaging cleanser into a cheek" };
const upload = (ref: string) => ({ _type: "file", asset: { _type: "reference", _ref: ref } });

function problems(value: unknown): string[] {
  const result = RoutineVideo.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("a video in content", () => {
  it("needs its still picture, described, as a picture does", () => {
    expect(problems({ title: "Cleanse", url: "/videos/cleanse.mp4" })).toEqual(["poster: Invalid input: expected object, received undefined"]);
    expect(problems({ title: "Cleanse", url: "/videos/cleanse.mp4", poster: { ...poster, alt: " " } })).toEqual([
      "poster.alt: describe the picture for people who cannot see it",
    ]);
  });

  it("is an uploaded MP4 or WebM, or a file under /videos/; captions an uploaded .vtt", () => {
    expect(problems({ title: "Cleanse", poster })).toEqual(["url: add a video file or a /videos/ address"]);
    expect(problems({ title: "Cleanse", poster, file: upload("file-9f8e7d-mov") })).toEqual(["file.asset._ref: upload an MP4 or WebM video"]);
    expect(problems({ title: "Cleanse", poster, url: "https://example.com/cleanse.mp4" })).toEqual(["url: must be a file under /videos/ (.mp4, .webm)"]);
    expect(problems({ title: "Cleanse", poster, file: upload("file-9f8e7d-mp4"), captions: { file: upload("file-5a6b-srt") } })).toEqual([
      "captions.file.asset._ref: upload a .vtt captions file",
    ]);
  });

  it("plays from Sanity's CDN when read from Sanity, from its copy under /videos/cms/ offline, with the poster's size", () => {
    const stored = { title: "Cleanse", poster, file: upload("file-9f8e7d-mp4"), captions: { file: upload("file-5a6b-vtt") } };
    const offline = videoView(RoutineVideo.parse(stored))!;
    expect(offline.src).toBe("/videos/cms/9f8e7d.mp4");
    expect(offline.captions).toEqual({ src: "/videos/cms/5a6b.vtt", label: "English", srclang: "en" });
    expect(offline.poster).toMatchObject({ width: 1280, height: 720, alt: "Hands massaging cleanser into a cheek" });

    const online = videoView(RoutineVideo.parse({ ...stored, fileUrl: "https://cdn.sanity.io/files/p/d/9f8e7d.mp4" }))!;
    expect(online.src).toBe("https://cdn.sanity.io/files/p/d/9f8e7d.mp4");
  });
});
